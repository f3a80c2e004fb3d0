export function RegisterPage() {
  return <p className="p-6">RegisterPage</p>;
}
