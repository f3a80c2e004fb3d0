import { Progress } from '@/web/components/ui/progress';
import type { SaveStage } from './save-marks';

/** The save progress bar and its stage (operations §2), driven by the real save. */
export function SaveProgress({ stage }: { stage: SaveStage }) {
  return (
    <div className="grid gap-1.5 rounded-lg border bg-card p-3" aria-live="polite" data-testid="save-progress">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="font-medium">{stage.label}</span>
        <span className="tabular-nums text-muted-foreground">{stage.percent}%</span>
      </div>
      <Progress value={stage.percent} label="Saving marks" />
      {stage.detail ? <p className="text-xs text-muted-foreground">{stage.detail}</p> : null}
    </div>
  );
}
