import { useQuery } from '@tanstack/react-query';
import { LockIcon, UserPlusIcon, UsersRoundIcon } from 'lucide-react';
import { useState } from 'react';
import { INVITABLE_ROLES, useCan, type InvitableRole } from '@/web/app/permissions';
import { useSchoolSession } from '@/web/app/session';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { NativeSelect } from '@/web/components/ui/input';
import { Spinner } from '@/web/components/ui/spinner';
import { formatGeneratedAt } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { cn } from '@/web/lib/utils';
import { staffQuery, useResendInvite, useUpdateStaff, type StaffMember } from './api';
import { AssignmentsDialog } from './assignments-dialog';
import { InviteDialog } from './invite-dialog';
import { STAFF_TEXTS } from './texts';

const STATUS_VARIANT = { active: 'success', invited: 'secondary', inactive: 'destructive' } as const;

/** Settings → Staff (issue 15 item 1): Administrators only; others never see the card. */
export function StaffCard() {
  const can = useCan();
  if (!can('staff.manage')) return null;
  return <StaffList />;
}

function StaffList() {
  const staff = useQuery(staffQuery());
  const [inviting, setInviting] = useState(false);
  const [toggling, setToggling] = useState<StaffMember | null>(null);
  const [assigning, setAssigning] = useState<StaffMember | null>(null);
  const update = useUpdateStaff();
  const resend = useResendInvite();
  const { user } = useSchoolSession();
  const togglingOff = toggling !== null && toggling.status !== 'inactive';

  const changeRole = (member: StaffMember, role: InvitableRole) =>
    update.mutate(
      { id: member.id, role },
      {
        onSuccess: () => toast.success({ title: STAFF_TEXTS.changeRole, description: STAFF_TEXTS.roleChanged(member.name, STAFF_TEXTS.roleLabel[role]) }),
        onError: (error) => toast.error({ title: STAFF_TEXTS.changeRole, description: refusalMessage(error, STAFF_TEXTS.updateFailed) }),
      },
    );

  const toggle = () => {
    const member = toggling;
    if (!member) return;
    const active = member.status === 'inactive';
    update.mutate(
      { id: member.id, active },
      {
        onSuccess: () =>
          toast.success({ title: STAFF_TEXTS.title, description: active ? STAFF_TEXTS.reactivated(member.name) : STAFF_TEXTS.deactivated(member.name) }),
        onError: (error) => toast.error({ title: STAFF_TEXTS.title, description: refusalMessage(error, STAFF_TEXTS.updateFailed) }),
      },
    );
    setToggling(null);
  };

  return (
    <Card id="staff">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle level={2} className="flex items-center gap-2">
            <UsersRoundIcon className="size-5 text-primary" />
            {STAFF_TEXTS.title}
          </CardTitle>
          <CardDescription>{STAFF_TEXTS.description}</CardDescription>
          {staff.data ? (
            <p className="text-xs text-muted-foreground" data-testid="staff-seats">
              {STAFF_TEXTS.seats(staff.data.used, staff.data.limit, staff.data.planName)}
            </p>
          ) : null}
        </div>
        <Button size="sm" className="self-start" onClick={() => setInviting(true)}>
          <UserPlusIcon />
          {STAFF_TEXTS.invite}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        {staff.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : staff.isError ? (
          <LoadFailedAlert message={STAFF_TEXTS.loadFailed} onRetry={() => staff.refetch()} />
        ) : (
          <>
            <ul className="grid gap-2" aria-label={STAFF_TEXTS.title}>
              {staff.data.members.map((member) => {
                const status = member.status;
                const inactive = status === 'inactive';
                const locked = member.isOwner || member.id === user.id;
                return (
                  <li
                    key={member.id}
                    aria-label={member.name}
                    className={cn('grid gap-3 rounded-lg border p-3 md:grid-cols-[minmax(0,1fr)_auto] md:items-center', inactive && 'bg-muted/50')}
                  >
                    <div className="grid min-w-0 gap-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="font-medium">{member.name}</span>
                        {member.isOwner ? (
                          <Badge variant="outline" className="gap-1">
                            <LockIcon className="size-3" />
                            {STAFF_TEXTS.owner}
                          </Badge>
                        ) : null}
                        <Badge variant={STATUS_VARIANT[status]}>{STAFF_TEXTS.statusLabel[status]}</Badge>
                      </div>
                      <span className="break-all text-sm text-muted-foreground">{member.email}</span>
                      <span className="text-xs text-muted-foreground">
                        {STAFF_TEXTS.lastSignIn}: {member.lastLoginAt ? formatGeneratedAt(member.lastLoginAt) : STAFF_TEXTS.never}
                        {member.role === 'teacher' && member.assignments.length
                          ? ` · ${member.assignments.map((a) => `${a.className}${a.section ? `-${a.section}` : ''}`).join(', ')}`
                          : ''}
                      </span>
                    </div>
                    {locked ? (
                      <div className="flex items-center gap-2 text-sm text-muted-foreground" title={STAFF_TEXTS.ownerLocked}>
                        {member.isOwner ? (
                          <span className="text-xs">{STAFF_TEXTS.ownerLocked}</span>
                        ) : (
                          <span className="font-medium text-foreground">{STAFF_TEXTS.roleLabel[member.role]}</span>
                        )}
                      </div>
                    ) : (
                      <div className="flex flex-wrap items-center gap-2">
                        <NativeSelect
                          aria-label={`${STAFF_TEXTS.role} of ${member.name}`}
                          className="h-9 w-40"
                          value={member.role}
                          disabled={update.isPending || inactive}
                          onChange={(e) => changeRole(member, e.target.value as InvitableRole)}
                        >
                          {INVITABLE_ROLES.map((r) => (
                            <option key={r} value={r}>
                              {STAFF_TEXTS.roleLabel[r]}
                            </option>
                          ))}
                        </NativeSelect>
                        {status === 'invited' ? (
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={resend.isPending}
                            onClick={() =>
                              resend.mutate(member.id, {
                                onSuccess: () => toast.success({ title: STAFF_TEXTS.resend, description: STAFF_TEXTS.resent(member.email) }),
                                onError: (error) => toast.error({ title: STAFF_TEXTS.resend, description: refusalMessage(error, STAFF_TEXTS.updateFailed) }),
                              })
                            }
                          >
                            {STAFF_TEXTS.resend}
                          </Button>
                        ) : null}
                        {member.role === 'teacher' ? (
                          <Button variant="outline" size="sm" onClick={() => setAssigning(member)}>
                            {STAFF_TEXTS.assignments}
                          </Button>
                        ) : null}
                        <Button
                          variant="outline"
                          size="sm"
                          className={inactive ? undefined : 'text-destructive'}
                          aria-label={`${inactive ? STAFF_TEXTS.reactivate : STAFF_TEXTS.deactivate} ${member.name}`}
                          onClick={() => setToggling(member)}
                        >
                          {inactive ? STAFF_TEXTS.reactivate : STAFF_TEXTS.deactivate}
                        </Button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
            {staff.data.members.length <= 1 ? <p className="text-sm text-muted-foreground">{STAFF_TEXTS.empty}</p> : null}
          </>
        )}
      </CardContent>
      <InviteDialog open={inviting} onOpenChange={setInviting} />
      <AssignmentsDialog member={assigning} onClose={() => setAssigning(null)} />
      <ConfirmDialog
        open={toggling !== null}
        onOpenChange={(open) => !open && setToggling(null)}
        title={toggling ? (togglingOff ? STAFF_TEXTS.deactivateTitle(toggling.name) : STAFF_TEXTS.reactivateTitle(toggling.name)) : ''}
        description={togglingOff ? STAFF_TEXTS.deactivateBody : STAFF_TEXTS.reactivateBody}
        confirmLabel={togglingOff ? STAFF_TEXTS.deactivate : STAFF_TEXTS.reactivate}
        destructive={togglingOff}
        onConfirm={toggle}
      />
    </Card>
  );
}
