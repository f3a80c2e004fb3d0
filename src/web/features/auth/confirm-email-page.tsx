export function ConfirmEmailPage() {
  return <p className="p-6">ConfirmEmailPage</p>;
}
