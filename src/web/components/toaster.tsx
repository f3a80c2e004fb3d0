import { Toaster as Sonner, toast as sonner } from 'sonner';
import { useTheme } from './theme';

/** One toast at a time (platform §9), 5 s by default. */
export function Toaster() {
  const { theme } = useTheme();
  return <Sonner theme={theme} position="top-center" visibleToasts={1} richColors closeButton duration={5000} />;
}

type ToastInput = { title: string; description?: string; duration?: number };

export const toast = {
  success: ({ title, description, duration }: ToastInput) => sonner.success(title, { description, duration }),
  error: ({ title, description, duration }: ToastInput) => sonner.error(title, { description, duration }),
  info: ({ title, description, duration }: ToastInput) => sonner.info(title, { description, duration }),
  warning: ({ title, description, duration }: ToastInput) => sonner.warning(title, { description, duration }),
};
