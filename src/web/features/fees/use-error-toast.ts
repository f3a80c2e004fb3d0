import { useEffect } from 'react';
import { toast } from '@/web/components/toaster';

/** The fee screens' loading failures (operations §8) as a destructive toast, once per failure. */
export function useErrorToast(error: Error | null | undefined, title: string): void {
  useEffect(() => {
    if (error) toast.error({ title, description: error.message });
  }, [error, title]);
}
