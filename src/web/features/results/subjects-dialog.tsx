import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDownIcon, ArrowUpIcon, CheckIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { subjectNameSchema } from '@/domain/results';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Spinner } from '@/web/components/ui/spinner';
import { resultsApi, resultsKeys, subjectsQuery, type Subject } from './api';

/** Edits a class's subject list: add, rename, reorder, and remove while no marks use a subject. */
export function SubjectsDialog({ className, open, onOpenChange }: { className: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const subjects = useQuery({ ...subjectsQuery(className), enabled: open && Boolean(className) });
  const [newName, setNewName] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);

  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: resultsKeys.subjects(className) }), queryClient.invalidateQueries({ queryKey: resultsKeys.all })]);
  const onError = (error: Error) => toast.error({ title: 'Error', description: error.message });

  const add = useMutation({
    mutationFn: (name: string) => resultsApi.addSubject(className, name),
    onSuccess: async (s) => {
      setNewName('');
      toast.success({ title: 'Subject added', description: `${s.name} was added to ${className}.` });
      await refresh();
    },
    onError,
  });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => resultsApi.renameSubject(id, name),
    onSuccess: async () => {
      setEditing(null);
      await refresh();
    },
    onError,
  });
  const reorder = useMutation({ mutationFn: (ids: string[]) => resultsApi.reorderSubjects(className, ids), onSuccess: refresh, onError });
  const remove = useMutation({
    mutationFn: (s: Subject) => resultsApi.removeSubject(s.id),
    onSuccess: async (answer) => {
      toast.success({ title: 'Subject removed', description: answer.message });
      await refresh();
    },
    onError,
  });

  const list = subjects.data?.subjects ?? [];
  const busy = add.isPending || rename.isPending || reorder.isPending || remove.isPending;

  const submitNew = (e: FormEvent) => {
    e.preventDefault();
    const parsed = subjectNameSchema.safeParse(newName);
    if (!parsed.success) return toast.error({ title: 'Error', description: parsed.error.issues[0]!.message });
    add.mutate(parsed.data);
  };
  const submitRename = (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const parsed = subjectNameSchema.safeParse(editing.name);
    if (!parsed.success) return toast.error({ title: 'Error', description: parsed.error.issues[0]!.message });
    rename.mutate({ id: editing.id, name: parsed.data });
  };
  const move = (index: number, by: -1 | 1) => {
    const ids = list.map((s) => s.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    reorder.mutate(ids);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Subjects of {className}</DialogTitle>
          <DialogDescription>The order here is the order of the marks grid, the class results and the marksheets. A subject with marks cannot be removed.</DialogDescription>
        </DialogHeader>
        {subjects.isPending ? (
          <div className="flex justify-center p-6"><Spinner /></div>
        ) : (
          <ol className="grid gap-1.5" aria-label={`Subjects of ${className}`}>
            {list.map((s, i) => (
              <li key={s.id} className="flex items-center gap-2 rounded-md border px-2 py-1.5">
                <span className="w-6 text-right text-xs tabular-nums text-muted-foreground">{i + 1}.</span>
                {editing?.id === s.id ? (
                  <form onSubmit={submitRename} className="flex flex-1 items-center gap-1.5">
                    <Input aria-label={`New name for ${s.name}`} value={editing.name} autoFocus onChange={(e) => setEditing({ id: s.id, name: e.target.value })} className="h-8" maxLength={60} />
                    <Button type="submit" size="icon" variant="ghost" className="size-8" aria-label="Save name" disabled={busy}><CheckIcon /></Button>
                    <Button size="icon" variant="ghost" className="size-8" aria-label="Cancel" onClick={() => setEditing(null)}><XIcon /></Button>
                  </form>
                ) : (
                  <>
                    <span className="flex-1 truncate text-sm font-medium">{s.name}</span>
                    {s.hasMarks ? <span className="text-xs text-muted-foreground">has marks</span> : null}
                    <Button size="icon" variant="ghost" className="size-8" aria-label={`Move ${s.name} up`} disabled={busy || i === 0} onClick={() => move(i, -1)}><ArrowUpIcon /></Button>
                    <Button size="icon" variant="ghost" className="size-8" aria-label={`Move ${s.name} down`} disabled={busy || i === list.length - 1} onClick={() => move(i, 1)}><ArrowDownIcon /></Button>
                    <Button size="icon" variant="ghost" className="size-8" aria-label={`Rename ${s.name}`} disabled={busy} onClick={() => setEditing({ id: s.id, name: s.name })}><PencilIcon /></Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      className="size-8 text-destructive"
                      aria-label={`Remove ${s.name}`}
                      title={s.hasMarks ? 'Marks are entered for this subject' : `Remove ${s.name}`}
                      disabled={busy || s.hasMarks}
                      onClick={() => remove.mutate(s)}
                    >
                      <Trash2Icon />
                    </Button>
                  </>
                )}
              </li>
            ))}
            {list.length === 0 ? <li className="text-sm text-muted-foreground">No subjects yet. Add the first one below.</li> : null}
          </ol>
        )}
        <form onSubmit={submitNew} className="flex gap-2">
          <Input aria-label="New subject name" placeholder="New subject, e.g. Drawing" value={newName} onChange={(e) => setNewName(e.target.value)} maxLength={60} />
          <Button type="submit" disabled={busy}>
            <PlusIcon />
            Add
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
