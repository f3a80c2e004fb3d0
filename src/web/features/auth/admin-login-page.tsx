export function AdminLoginPage() {
  return <p className="p-6">AdminLoginPage</p>;
}
