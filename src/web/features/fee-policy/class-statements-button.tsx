import { useQuery } from '@tanstack/react-query';
import { FileTextIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { downloadFile } from '@/web/lib/download';
import { refusalMessage } from '@/web/lib/form-errors';
import { activeSessionQuery } from '@/web/lib/school-data';
import { paths } from './api';
import { texts } from './texts';

/** Students, under a chosen class: every student's session statement in one PDF, to print at year end. */
export function ClassStatementsButton({ className, section }: { className: string; section: string }) {
  const session = useQuery(activeSessionQuery());
  const [busy, setBusy] = useState(false);
  const year = session.data?.sessionName;
  if (!className || !year) return null;
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(paths.classStatements(className, section || undefined, year), `statements-${className.replace(/\s+/g, '-')}${section ? `-${section}` : ''}-${year}.pdf`);
    } catch (error) {
      toast.error({ title: texts.downloadFailed, description: refusalMessage(error, texts.downloadFailed) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex justify-end">
      <Button variant="outline" size="sm" onClick={() => void download()} disabled={busy}>
        <FileTextIcon />
        {texts.classStatements} ({className}
        {section ? `-${section}` : ''}, {year})
      </Button>
    </div>
  );
}
