import { ArchiveIcon, DownloadIcon, FileSpreadsheetIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Progress } from '@/web/components/ui/progress';
import { Spinner } from '@/web/components/ui/spinner';
import { downloadFile } from '@/web/lib/download';
import { formatDate } from '@/web/lib/format';
import { inProgress, useExports, useStartExport } from './api';
import { EXPORT_TEXTS as T, sizeText } from './texts';

/** Settings card: one action that exports the whole school as a zip (ruling 25, issue 12 item 5). */
export function ExportCard() {
  const exports = useExports();
  const start = useStartExport();
  const [downloading, setDownloading] = useState(false);
  const latest = exports.data?.exports[0];
  const busy = inProgress(latest) || start.isPending;

  const begin = () =>
    start.mutate(undefined, {
      onError: (error) => toast.error({ title: T.startFailed, description: error.message }),
    });

  const download = async (url: string) => {
    setDownloading(true);
    try {
      await downloadFile(url, T.fileName);
    } catch (error) {
      toast.error({ title: T.downloadFailed, description: (error as Error).message });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card data-testid="export-card">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <ArchiveIcon className="size-5 text-primary" />
          {T.title}
        </CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <FileSpreadsheetIcon className="mt-0.5 size-4 shrink-0" />
          <span>
            {T.contents} {T.readOnlyNote}
          </span>
        </p>

        {latest && inProgress(latest) ? (
          <div className="grid gap-2" aria-live="polite">
            <p className="text-sm font-medium">{latest.status === 'queued' ? T.queued : T.running(latest.progress)}</p>
            <Progress value={latest.progress} label={T.progressLabel} />
          </div>
        ) : null}

        {latest?.status === 'done' && latest.downloadUrl ? (
          <Alert variant="success">
            <AlertTitle>{T.ready}</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>{T.readyDetail(sizeText(latest.sizeBytes), formatDate(latest.expiresAt))}</p>
              <div>
                <Button size="sm" onClick={() => void download(latest.downloadUrl!)} disabled={downloading}>
                  {downloading ? <Spinner /> : <DownloadIcon />}
                  {downloading ? T.downloading : T.download}
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        ) : null}

        {latest?.status === 'done' && !latest.downloadUrl ? <p className="text-sm text-muted-foreground">{T.expired(formatDate(latest.createdAt))}</p> : null}

        {latest?.status === 'failed' ? (
          <Alert variant="destructive">
            <AlertTitle>{T.failed}</AlertTitle>
            <AlertDescription>{latest.error}</AlertDescription>
          </Alert>
        ) : null}

        <div>
          <Button variant={latest?.status === 'done' ? 'outline' : 'default'} onClick={begin} disabled={busy || exports.isLoading}>
            {busy ? <Spinner /> : <ArchiveIcon />}
            {start.isPending ? T.starting : latest ? T.again : T.start}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
