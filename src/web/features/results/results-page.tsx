export function ResultsPage() {
  return <p className="p-6">Results</p>;
}
