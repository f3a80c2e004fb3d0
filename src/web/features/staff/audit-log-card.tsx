import { ChevronRightIcon, ScrollTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '@/web/app/permissions';
import { Button } from '@/web/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { AUDIT_TEXTS } from './texts';

/** The way from Settings to the audit log, for Administrators. */
export function AuditLogCard() {
  const can = useCan();
  if (!can('audit.view')) return null;
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle level={2} className="flex items-center gap-2">
            <ScrollTextIcon className="size-5 text-primary" />
            {AUDIT_TEXTS.title}
          </CardTitle>
          <CardDescription>{AUDIT_TEXTS.description}</CardDescription>
        </div>
        <Button variant="outline" size="sm" asChild className="self-start">
          <Link to="/school/settings/audit">
            Open
            <ChevronRightIcon />
          </Link>
        </Button>
      </CardHeader>
    </Card>
  );
}
