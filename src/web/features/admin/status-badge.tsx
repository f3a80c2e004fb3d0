import { Badge } from '@/web/components/ui/badge';
import type { School } from '@/web/lib/me-api';
import { schoolStatus } from './school-stats';

export function SchoolStatusBadge({ school }: { school: School }) {
  const { label, tone } = schoolStatus(school);
  return <Badge variant={tone}>{label}</Badge>;
}
