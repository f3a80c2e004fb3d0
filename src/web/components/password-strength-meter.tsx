import { passwordStrength } from '@/domain/auth';
import { Progress } from '@/web/components/ui/progress';
import { cn } from '@/web/lib/utils';

const COLOURS = {
  Weak: { bar: 'bg-red-500', text: 'text-red-600 dark:text-red-400' },
  Medium: { bar: 'bg-yellow-500', text: 'text-yellow-700 dark:text-yellow-400' },
  Strong: { bar: 'bg-green-500', text: 'text-green-700 dark:text-green-400' },
} as const;

/**
 * Live strength of a new password and what would make it acceptable or stronger, judged by the
 * shared password policy (src/domain/password-policy.ts). Used on registration, reset and change;
 * shown only once something is typed.
 */
export function PasswordStrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const strength = passwordStrength(password);
  const colour = COLOURS[strength.label];
  return (
    <div className="grid gap-1" aria-live="polite">
      <div className="flex items-center justify-between text-xs">
        <span className="text-muted-foreground">Password strength</span>
        <span className={cn('font-semibold', colour.text)}>{strength.label}</span>
      </div>
      <Progress value={strength.percent} label={`Password strength: ${strength.label}`} className="h-1.5" indicatorClassName={colour.bar} />
      <p className={cn('text-xs', strength.label === 'Weak' ? colour.text : 'text-muted-foreground')}>{strength.hint}</p>
    </div>
  );
}
