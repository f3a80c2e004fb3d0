import { useQuery } from '@tanstack/react-query';
import { BookMarkedIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { HEAD_LABELS, type FeeHead } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { serverMessage } from '@/web/lib/form-errors';
import { tallyMappingQuery, useSaveTallyMapping, type TallyMapping } from './api';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

type Group = 'heads' | 'modes' | 'expenseCategories';
const GROUPS: Group[] = ['heads', 'modes', 'expenseCategories'];

const labelOf = (group: Group, key: string) => (group === 'heads' ? (HEAD_LABELS[key as FeeHead] ?? key) : group === 'modes' ? (texts.modeLabels[key] ?? key) : key);

/** Settings → Tally ledger names: our heads, modes and expense categories to the school's Tally ledgers. */
/** Settings: the school's fee policy is the Administrator's (ruling 32); others never see the card. */
export function TallyMappingCard() {
  const can = useCan();
  return can('fee-policy.manage') ? <TallyMappingCardBody /> : null;
}

function TallyMappingCardBody() {
  const mapping = useQuery(tallyMappingQuery);
  return (
    <Card id="tally-ledgers" data-testid="tally-mapping-card">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <BookMarkedIcon className="size-5 text-primary" />
          {texts.mappingTitle}
        </CardTitle>
        <CardDescription>{texts.mappingDescription}</CardDescription>
      </CardHeader>
      <CardContent>{mapping.data ? <MappingForm key={JSON.stringify(mapping.data)} saved={mapping.data} /> : null}</CardContent>
    </Card>
  );
}

function MappingForm({ saved }: { saved: TallyMapping }) {
  const [value, setValue] = useState(saved);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveTallyMapping();
  const setName = (group: Group, key: string, name: string) => setValue((v) => ({ ...v, [group]: { ...v[group], [key]: name } }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = GROUPS.flatMap((g) => Object.entries(value[g]).filter(([, n]) => !n.trim()).map(([k]) => labelOf(g, k)));
    if (!value.expensesPaidFrom.trim() || !value.studentCredit.trim() || empty.length > 0) {
      setProblem(texts.mappingEmpty(empty[0] ?? texts.expensesPaidFrom));
      return;
    }
    setProblem(null);
    save.mutate(value, {
      onSuccess: () => toast.success({ title: texts.mappingSaved }),
      onError: (error) => setProblem(serverMessage(error) ?? error.message),
    });
  };
  const field = (id: string, label: string, name: string, onChange: (name: string) => void) => (
    <div key={id} className="grid gap-1 sm:grid-cols-[12rem_1fr] sm:items-center sm:gap-3">
      <Label htmlFor={id} className="font-normal text-muted-foreground">
        {label}
      </Label>
      <Input id={id} value={name} maxLength={100} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
  return (
    <form className="grid gap-5" onSubmit={submit} noValidate aria-label={texts.mappingTitle}>
      {GROUPS.map((group) => (
        <fieldset key={group} className="grid gap-2">
          <legend className="mb-2 text-sm font-semibold">{texts.mappingGroups[group]}</legend>
          {Object.entries(value[group]).map(([key, name]) => field(`tally-${group}-${key}`, labelOf(group, key), name, (n) => setName(group, key, n)))}
        </fieldset>
      ))}
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-semibold">{texts.mappingOther}</legend>
        {field('tally-paid-from', texts.expensesPaidFrom, value.expensesPaidFrom, (n) => setValue((v) => ({ ...v, expensesPaidFrom: n })))}
        {field('tally-credit', texts.studentCredit, value.studentCredit, (n) => setValue((v) => ({ ...v, studentCredit: n })))}
      </fieldset>
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? texts.saving : texts.save}
        </Button>
      </div>
    </form>
  );
}
