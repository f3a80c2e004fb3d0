import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { SUBSCRIPTIONS_PLACEHOLDER, TAB_LABELS } from './texts';

/**
 * Placeholder: the Subscription Management tab (search, counts, Valid Until, Days Left, row actions)
 * is built by the subscription work of issue 12 item 1, which replaces this file and keeps the export.
 */
export function SubscriptionsTab() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TAB_LABELS.subscriptions}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-muted-foreground">{SUBSCRIPTIONS_PLACEHOLDER}</p>
      </CardContent>
    </Card>
  );
}
