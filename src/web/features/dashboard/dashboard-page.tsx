import { useSchoolSession } from '@/web/app/session';

export function DashboardPage() {
  const { school } = useSchoolSession();
  return <h1 className="p-6 text-2xl font-semibold">{school.name}</h1>;
}
