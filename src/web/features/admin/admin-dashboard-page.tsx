export function AdminDashboardPage() {
  return <p className="p-6">Master admin</p>;
}
