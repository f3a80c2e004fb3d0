import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ME_KEY, type User } from '@/web/lib/me-api';
import { api } from '@/web/lib/request';

/** POST /api/auth/complete-onboarding: the tour is done for this user, on every device. */
export function useCompleteOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ user: User }>('/api/auth/complete-onboarding'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
}

/** Local flags of platform §3 (cleared at every sign-in with the rest of the browser's state). */
export const ONBOARDING_FLAGS = { seen: 'hasSeenOnboarding', skip: 'skipOnboardingTour', mobileDismissed: 'mobile-warning-dismissed' } as const;
