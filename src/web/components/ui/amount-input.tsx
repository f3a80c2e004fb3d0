import type { ComponentProps } from 'react';
import { Input } from './input';

/**
 * Every rupee field of the product (decision 0033). A text field with the decimal keypad, not a
 * browser number field: a number field takes `1e3` as 1000, drops `1,00,000` and letters to an
 * empty value without a word, and changes the amount when the mouse wheel turns over it. What
 * is typed is kept as typed and judged by the one rule in `src/domain/amount-input.ts`, whose
 * message the screen shows.
 */
export function AmountInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type' | 'inputMode'>) {
  return <Input type="text" inputMode="decimal" autoComplete="off" spellCheck={false} className={className} {...props} />;
}
