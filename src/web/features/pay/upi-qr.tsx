import { create } from 'qrcode';
import { useMemo } from 'react';

/**
 * A QR code of a UPI intent, drawn as one SVG path from the library's module matrix (decision
 * 0039): no canvas, no HTML string, crisp at any size, dark modules on white in either theme
 * because UPI apps scan dark-on-light best. A four-module quiet zone is kept around it.
 */
export function UpiQr({ value, label, className }: { value: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const modules = create(value, { errorCorrectionLevel: 'M' }).modules;
    let d = '';
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
      }
    }
    return { size: modules.size + 8, path: d };
  }, [value]);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} className={className} shapeRendering="crispEdges" data-testid="upi-qr">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
