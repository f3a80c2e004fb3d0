import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SchoolInfoInput } from '@/domain/auth';
import { ME_KEY, type School, type User } from '@/web/lib/me-api';
import { SCHOOL_LOGO_PATH } from '@/web/lib/school-logo';
import { api } from '@/web/lib/request';

/** Account settings calls (operations §7). The confirmation field never leaves the browser. */
export const settingsApi = {
  changePassword: (body: { currentPassword: string; newPassword: string }) => api.post<{ message: string }>('/api/auth/change-password', body),
  /** asks for the change: the address changes only once the link mailed to it is opened */
  changeEmail: (body: { newEmail: string; password: string }) =>
    api.post<{ message: string; user: User; pendingEmail: string }>('/api/auth/change-email', body),
  updateSchool: (body: SchoolInfoInput) => api.put<{ message: string; school: School }>('/api/schools/update-info', body),
  uploadLogo: (image: string) => api.put<{ message: string }>(SCHOOL_LOGO_PATH, { image }),
  removeLogo: () => api.delete<{ message: string }>(SCHOOL_LOGO_PATH),
};

/** Upload and removal refetch the logo wherever it shows (Settings, printed receipts). */
export function useSchoolLogoMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: [SCHOOL_LOGO_PATH] });
  return {
    upload: useMutation({ mutationFn: settingsApi.uploadLogo, onSuccess }),
    remove: useMutation({ mutationFn: settingsApi.removeLogo, onSuccess }),
  };
}

export function useChangePassword() {
  return useMutation({ mutationFn: settingsApi.changePassword });
}

/** Nothing changes until the new inbox confirms, so there is nothing to refetch yet. */
export function useChangeEmail() {
  return useMutation({ mutationFn: settingsApi.changeEmail });
}

export function useUpdateSchool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: settingsApi.updateSchool,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
}
