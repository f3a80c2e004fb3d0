import { Button } from '@/web/components/ui/button';
import { SECURITY_TEXTS as T } from './texts';

/** Previous / Next under a paged list, with "Page n of m · t entries". */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 pt-3 text-sm text-muted-foreground">
      <span>{T.pageOf(page, pages, total)}</span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {T.previous}
        </Button>
        <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {T.next}
        </Button>
      </div>
    </div>
  );
}
