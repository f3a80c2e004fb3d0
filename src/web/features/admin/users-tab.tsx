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
        <CardTitle>Users</CardTitle>
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
                <TableHead>Role</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last Login</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.data.map((u) => (
                <TableRow key={u.id}>
                  <TableCell className="min-w-48">
                    <div className="font-medium">{u.username}</div>
                    <div className="text-xs text-muted-foreground">{u.email}</div>
                  </TableCell>
                  <TableCell>
                    <Badge variant={u.role === 'master_admin' ? 'default' : 'outline'}>{u.role === 'master_admin' ? 'Master Admin' : 'School Admin'}</Badge>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{formatDate(u.createdAt)}</TableCell>
                  <TableCell className="whitespace-nowrap">{u.lastLoginAt ? formatDate(u.lastLoginAt) : 'Never'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
