import type { Plan } from './plans-api';

export interface PlanHighlights {
  plan: Plan;
  /** the cheaper plan whose features this one includes, when it includes all of them */
  includes: Plan | null;
  /** what this plan adds over `includes` (all features when it includes no other plan) */
  extras: string[];
}

/**
 * The catalogue lists every feature of every plan, so Standard repeats Basic's five. Shown side by
 * side, cards read better as "Everything in Basic, plus …". Plans are taken in catalogue order;
 * a plan only "includes" the previous one when it really has all of its features.
 */
export function planHighlights(plans: readonly Plan[]): PlanHighlights[] {
  return plans.map((plan, index) => {
    const previous = index > 0 ? plans[index - 1]! : null;
    const own = new Set(plan.features);
    if (previous && previous.features.length > 0 && previous.features.every((f) => own.has(f))) {
      const inherited = new Set(previous.features);
      return { plan, includes: previous, extras: plan.features.filter((f) => !inherited.has(f)) };
    }
    return { plan, includes: null, extras: [...plan.features] };
  });
}
