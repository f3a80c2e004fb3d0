export function SettingsPage() {
  return <p className="p-6">Settings</p>;
}
