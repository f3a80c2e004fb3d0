import { useQuery } from '@tanstack/react-query';
import { ImageIcon, Trash2Icon, UploadIcon } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { LOGO_MAX_BYTES, LOGO_TEXTS } from '@/domain/school-logo';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { refusalMessage } from '@/web/lib/form-errors';
import { schoolLogoQuery } from '@/web/lib/school-logo';
import { useSchoolLogoMutations } from './api';

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(LOGO_TEXTS.notBase64));
    reader.readAsDataURL(file);
  });

/** The logo printed on receipts: a preview, upload (PNG/JPEG up to 300 KB) and remove. */
export function SchoolLogoField() {
  const logo = useQuery(schoolLogoQuery());
  const { upload, remove } = useSchoolLogoMutations();
  const input = useRef<HTMLInputElement>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > LOGO_MAX_BYTES) {
      toast.error({ title: LOGO_TEXTS.uploadFailed, description: LOGO_TEXTS.tooLarge });
      return;
    }
    try {
      const answer = await upload.mutateAsync(await readAsDataUrl(file));
      toast.success({ title: LOGO_TEXTS.saved, description: answer.message });
    } catch (error) {
      toast.error({ title: LOGO_TEXTS.uploadFailed, description: refusalMessage(error, LOGO_TEXTS.tryAgain) });
    }
  };

  const onRemove = async () => {
    try {
      const answer = await remove.mutateAsync();
      toast.success({ title: LOGO_TEXTS.removedTitle, description: answer.message });
    } catch (error) {
      toast.error({ title: LOGO_TEXTS.removeFailed, description: refusalMessage(error, LOGO_TEXTS.tryAgain) });
    }
  };

  const url = logo.data ?? null;
  return (
    <section aria-label={LOGO_TEXTS.title} className="mb-6 flex flex-wrap items-center gap-4">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted/40">
        {url ? <img src={url} alt={LOGO_TEXTS.alt} className="max-h-full max-w-full object-contain" /> : <ImageIcon aria-label={LOGO_TEXTS.empty} className="size-8 text-muted-foreground" />}
      </div>
      <div className="grid gap-2">
        <div>
          <p className="text-sm font-medium">{LOGO_TEXTS.title}</p>
          <p className="text-xs text-muted-foreground">{LOGO_TEXTS.description}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <input ref={input} type="file" accept="image/png,image/jpeg" className="sr-only" aria-label={LOGO_TEXTS.choose} onChange={onFile} tabIndex={-1} />
          <Button type="button" variant="outline" size="sm" disabled={upload.isPending} onClick={() => input.current?.click()}>
            <UploadIcon />
            {upload.isPending ? LOGO_TEXTS.uploading : url ? LOGO_TEXTS.replace : LOGO_TEXTS.choose}
          </Button>
          {url ? (
            <Button type="button" variant="outline" size="sm" disabled={remove.isPending} onClick={onRemove}>
              <Trash2Icon />
              {LOGO_TEXTS.remove}
            </Button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
