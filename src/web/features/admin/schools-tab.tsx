import { ExternalLinkIcon, SearchIcon, SettingsIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDate } from '@/web/lib/format';
import type { School } from '@/web/lib/me-api';
import { ManageSchoolById } from './manage-school-dialog';
import { filterSchools, planLabel } from './school-stats';
import { SchoolStatusBadge } from './status-badge';
import { SCHOOLS_TEXTS as T } from './texts';

export function SchoolsTab({ schools }: { schools: School[] }) {
  const [query, setQuery] = useState('');
  const [managing, setManaging] = useState<string | null>(null);
  const shown = filterSchools(schools, query);
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <CardTitle level={2}>Schools</CardTitle>
          <CardDescription>
            {shown.length === schools.length ? `${schools.length} registered` : `${shown.length} of ${schools.length} shown`}
          </CardDescription>
        </div>
        <div className="relative sm:w-72">
          <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            aria-label="Search schools"
            placeholder="Search by name or email"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="pl-9"
          />
        </div>
      </CardHeader>
      <CardContent>
        {shown.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">
            {schools.length === 0 ? 'No school has registered yet.' : `No school matches “${query.trim()}”.`}
          </p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>School</TableHead>
                <TableHead className="max-sm:hidden">Plan</TableHead>
                <TableHead className="max-sm:hidden">Status</TableHead>
                <TableHead className="max-sm:hidden">Created</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={s.id}>
                  <TableCell className="sm:min-w-48">
                    <div className="font-medium">{s.name}</div>
                    <div className="break-all text-xs text-muted-foreground">{s.email}</div>
                    {/* phones get the other columns stacked under the name instead of a sideways scroll */}
                    <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground sm:hidden">
                      <span>{planLabel(s.subscriptionPlan)}</span>
                      <SchoolStatusBadge school={s} />
                      <span>Created {formatDate(s.createdAt)}</span>
                    </div>
                  </TableCell>
                  <TableCell className="max-sm:hidden">{planLabel(s.subscriptionPlan)}</TableCell>
                  <TableCell className="max-sm:hidden"><SchoolStatusBadge school={s} /></TableCell>
                  <TableCell className="whitespace-nowrap max-sm:hidden">{formatDate(s.createdAt)}</TableCell>
                  <TableCell className="text-right">
                    <div className="flex flex-col items-end gap-1.5 sm:flex-row sm:justify-end">
                      <Button variant="outline" size="sm" asChild>
                        <Link to={`/admin/schools/${s.id}`} aria-label={T.openSchool(s.name)}>
                          <ExternalLinkIcon />
                          {T.open}
                        </Link>
                      </Button>
                      <Button variant="outline" size="sm" onClick={() => setManaging(s.id)} aria-label={T.manageSchool(s.name)}>
                        <SettingsIcon />
                        {T.manage}
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      {managing ? <ManageSchoolById schoolId={managing} onClose={() => setManaging(null)} /> : null}
    </Card>
  );
}
