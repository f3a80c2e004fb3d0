import { useQuery } from '@tanstack/react-query';
import { Badge } from '@/web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDate } from '@/web/lib/format';
import { adminUsersQuery } from './api';

export function UsersTab() {
  const users = useQuery(adminUsersQuery());
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Users</CardTitle>
        <CardDescription>Every account that can sign in. Read-only.</CardDescription>
      </CardHeader>
      <CardContent>
        {users.isPending ? (
          <div className="flex justify-center py-8"><Spinner label="Loading users" /></div>
        ) : users.isError ? (
          <p role="alert" className="py-8 text-center text-sm text-destructive">Unable to load users: {users.error.message}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>User</TableHead>
                <TableHead className="max-sm:hidden">Role</TableHead>
                <TableHead className="max-sm:hidden">Created</TableHead>
                <TableHead className="max-sm:hidden">Last Login</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.data.map((u) => (
                <TableRow key={u.id}>
                  <TableCell className="sm:min-w-48">
                    <div className="font-medium">{u.username}</div>
                    <div className="break-all text-xs text-muted-foreground">{u.email}</div>
                    <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground sm:hidden">
                      <RoleBadge role={u.role} />
                      <span>Created {formatDate(u.createdAt)}</span>
                      <span>Last login {u.lastLoginAt ? formatDate(u.lastLoginAt) : 'Never'}</span>
                    </div>
                  </TableCell>
                  <TableCell className="max-sm:hidden">
                    <RoleBadge role={u.role} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap max-sm:hidden">{formatDate(u.createdAt)}</TableCell>
                  <TableCell className="whitespace-nowrap max-sm:hidden">{u.lastLoginAt ? formatDate(u.lastLoginAt) : 'Never'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** Platform §2: master_admin shows as Master Admin, anything else as School Admin. */
function RoleBadge({ role }: { role: string }) {
  return <Badge variant={role === 'master_admin' ? 'default' : 'outline'}>{role === 'master_admin' ? 'Master Admin' : 'School Admin'}</Badge>;
}
