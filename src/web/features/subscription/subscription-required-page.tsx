export function SubscriptionRequiredPage() {
  return <p className="p-6">Subscription Required</p>;
}
