export function ContactPage() {
  return <p className="p-6">Contact</p>;
}
