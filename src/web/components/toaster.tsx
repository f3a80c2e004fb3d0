import { Toaster as Sonner, toast as sonner } from 'sonner';
import { useTheme } from './theme';

/**
 * One toast at a time (platform §9), 5 s by default; a new toast replaces the one before, so no stale
 * error lingers. (At the bottom right it covered the fee screens' Save button: it stays at the top.)
 */
export function Toaster() {
  const { theme } = useTheme();
  return <Sonner theme={theme} position="top-center" visibleToasts={1} richColors closeButton duration={5000} />;
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
