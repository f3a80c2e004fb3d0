export function ForgotPasswordPage() {
  return <p className="p-6">ForgotPasswordPage</p>;
}
