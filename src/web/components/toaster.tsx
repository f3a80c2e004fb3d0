import { Toaster as Sonner, toast as sonner } from 'sonner';
import { useTheme } from './theme';

/**
 * The app header is 64 px high (h-16, sticky) and holds the page's h1; toasts sit just below it.
 * Top-center covered the title, bottom-right the fee screens' Save button (seen in a CI journey):
 * top-right below the header covers neither (e2e/opening.test.ts checks it at 1280 and 375 px).
 */
const BELOW_HEADER = 76;

/**
 * One toast at a time (platform §9), 5 s by default; a new toast replaces the one before, so no stale
 * error lingers.
 */
export function Toaster() {
  const { theme } = useTheme();
  return (
    <Sonner
      theme={theme}
      position="top-right"
      offset={{ top: BELOW_HEADER, right: 16 }}
      mobileOffset={{ top: BELOW_HEADER, left: 8, right: 8 }}
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
};
