export function ResetPasswordPage() {
  return <p className="p-6">ResetPasswordPage</p>;
}
