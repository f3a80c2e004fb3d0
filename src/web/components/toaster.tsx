import { Toaster as Sonner, toast as sonner } from 'sonner';
import { useTheme } from './theme';

/**
 * One toast at a time (platform §9), 5 s by default, at the bottom where it never covers a page's
 * title or a dialog's heading; a new toast replaces the one before, so no stale error lingers.
 */
export function Toaster() {
  const { theme } = useTheme();
  return <Sonner theme={theme} position="bottom-right" visibleToasts={1} richColors closeButton duration={5000} />;
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
