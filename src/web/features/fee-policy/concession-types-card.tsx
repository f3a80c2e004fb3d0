import { useQuery } from '@tanstack/react-query';
import { BadgePercentIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { checkLineAmount } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { serverMessage } from '@/web/lib/form-errors';
import { rupees } from '@/web/lib/format';
import { typesQuery, useAddType, type ConcessionKind, type PolicyHead } from './api';
import { HeadPicker, headList } from './head-picker';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

/** Settings → Concession types: the school's list, and a form to add one. */
/** Settings: the school's fee policy is the Administrator's (ruling 32); others never see the card. */
export function ConcessionTypesCard() {
  const can = useCan();
  return can('fee-policy.manage') ? <ConcessionTypesCardBody /> : null;
}

function ConcessionTypesCardBody() {
  const types = useQuery(typesQuery);
  return (
    <Card data-testid="concession-types-card">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <BadgePercentIcon className="size-5 text-primary" />
          {texts.typesTitle}
        </CardTitle>
        <CardDescription>{texts.typesDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {types.data && types.data.length > 0 ? (
          <ul className="grid gap-2" aria-label={texts.typesTitle}>
            {types.data.map((t) => (
              <li key={t.id} className="flex flex-wrap items-baseline justify-between gap-x-3 rounded-md border px-3 py-2 text-sm">
                <span className="font-medium">{t.name}</span>
                <span className="text-muted-foreground">{t.description || texts.typeSummary(t.kind, t.kind === 'percent' ? t.value : rupees(t.value), headList(t.heads))}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{types.isPending ? '' : texts.noTypes}</p>
        )}
        <AddTypeForm />
      </CardContent>
    </Card>
  );
}

function AddTypeForm() {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ConcessionKind>('percent');
  const [value, setValue] = useState('');
  const [heads, setHeads] = useState<PolicyHead[]>(['tuition']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddType();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = texts.nameRequired;
    const label = kind === 'percent' ? texts.typeValuePercent : texts.typeValueAmount;
    const check = checkLineAmount(value, label);
    if (!check.ok) found.value = check.message;
    else if (!check.value) found.value = kind === 'percent' ? texts.percentRange : `Please enter the ${label.toLowerCase()}`;
    else if (kind === 'percent' && check.value > 10_000) found.value = texts.percentRange;
    if (heads.length === 0) found.heads = texts.headsRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    add.mutate(
      { name: name.trim(), kind, value: value.trim(), heads },
      {
        onSuccess: (t) => {
          toast.success({ title: texts.typeAdded(t.name) });
          setName('');
          setValue('');
        },
        onError: (error) => setErrors({ form: serverMessage(error) ?? error.message }),
      },
    );
  };

  return (
    <form className="grid gap-4 rounded-lg border border-dashed p-4" onSubmit={submit} noValidate aria-label={texts.addType}>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label={texts.typeName} htmlFor="ctype-name" error={errors.name}>
          <Input id="ctype-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Sibling" maxLength={80} />
        </Field>
        <Field label={texts.typeKind} htmlFor="ctype-kind">
          <NativeSelect id="ctype-kind" value={kind} onChange={(e) => setKind(e.target.value as ConcessionKind)}>
            <option value="percent">{texts.kinds.percent}</option>
            <option value="amount">{texts.kinds.amount}</option>
          </NativeSelect>
        </Field>
        <Field label={kind === 'percent' ? texts.typeValuePercent : texts.typeValueAmount} htmlFor="ctype-value" error={errors.value}>
          <AmountInput id="ctype-value" value={value} onChange={(e) => setValue(e.target.value)} placeholder={kind === 'percent' ? '10' : '150'} />
        </Field>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{texts.typeHeads}</legend>
        <HeadPicker idPrefix="ctype-head" value={heads} onChange={setHeads} />
        {errors.heads ? (
          <p role="alert" className="text-xs font-medium text-destructive">
            {errors.heads}
          </p>
        ) : null}
      </fieldset>
      {errors.form ? (
        <p role="alert" className="text-sm text-destructive">
          {errors.form}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? texts.saving : texts.addType}
        </Button>
      </div>
    </form>
  );
}
