import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * What other features add under a student's Fee Status (payment links and credit today; reminders
 * may join). Fee Status passes what it already loaded; the features do not import each other and
 * are put together here, like the dashboard's panels.
 */
export interface FeeStatusPanelProps {
  student: { id: string; name: string; className: string; section: string; rollNumber: number };
  academicYear: string;
  /** what is due, per month and head, as Fee Status shows it (amounts are rupee strings) */
  account: {
    months: Array<{ key: string; label: string; due: boolean; tuition: { outstanding: string }; bus: { outstanding: string } }>;
    yearly: { heads: Array<{ head: string; label: string; outstanding: string; status: string }> };
  };
  previousBalance: { balance: string };
  ledger: { outstandingTillDate: string };
}

const FEE_STATUS_PANELS: Array<LazyExoticComponent<ComponentType<FeeStatusPanelProps>>> = [
  lazy(() => import('@/web/features/payment-links/student-online-panel').then((m) => ({ default: m.StudentOnlinePanel }))),
];

export function FeeStatusPanels(props: FeeStatusPanelProps) {
  return (
    <Suspense fallback={null}>
      {FEE_STATUS_PANELS.map((Panel, i) => (
        <Panel key={i} {...props} />
      ))}
    </Suspense>
  );
}
