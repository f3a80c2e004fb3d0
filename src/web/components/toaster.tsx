import { useSyncExternalStore } from 'react';
import { Toaster as Sonner, toast as sonner } from 'sonner';
import { useTheme } from './theme';

/**
 * The app header is 64 px high (h-16, sticky) and holds the page's h1. Top-center covered the title,
 * bottom-right the fee screens' Save button (seen in a CI journey). On a wide screen toasts sit at the
 * right just below the header, beside the left-aligned titles. On a phone a full-width toast below the
 * header covers the section title and one at the bottom covers the Save button the clerk just pressed,
 * so it rests over the header bar itself for its few seconds (e2e/opening.test.ts checks both widths).
 */
const BELOW_HEADER = 76;
/** sonner's own mobile breakpoint: below it toasts take the full width */
const PHONE = '(max-width: 600px)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const usePhone = () => useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches, () => false);

/**
 * One toast at a time (platform §9), 5 s by default; a new toast replaces the one before, so no stale
 * error lingers.
 */
export function Toaster() {
  const { theme } = useTheme();
  const phone = usePhone();
  return (
    <Sonner
      theme={theme}
      position={phone ? 'top-center' : 'top-right'}
      offset={{ top: BELOW_HEADER, right: 16 }}
      mobileOffset={{ top: 4, left: 8, right: 8 }}
      visibleToasts={1}
      richColors
      closeButton
      duration={5000}
    />
  );
}

const replacing =
  (show: typeof sonner.success) =>
  ({ title, description, duration }: ToastInput) => {
    sonner.dismiss();
    return show(title, { description, duration });
  };

type ToastInput = { title: string; description?: string; duration?: number };

export const toast = {
  success: replacing(sonner.success),
  error: replacing(sonner.error),
  info: replacing(sonner.info),
  warning: replacing(sonner.warning),
  /** closes whatever toast is showing, when the step it talked about is over */
  dismiss: () => {
    sonner.dismiss();
  },
};
