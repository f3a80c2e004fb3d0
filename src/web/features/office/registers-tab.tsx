import { useCan } from '@/web/app/permissions';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { CancellationRegister } from './cancellation-register';
import { ChequeRegister } from './cheque-register';
import { ClosingsReport } from './closings-report';
import { REGISTER_TEXTS } from './texts';

/** The office registers (issue 15 items 4–6): closings, cheques and cancellations, for Accountants and Administrators. */
export function RegistersTab() {
  const can = useCan();
  return (
    <Tabs defaultValue="closings" className="grid gap-4">
      <TabsList className="justify-self-start">
        <TabsTrigger value="closings">{REGISTER_TEXTS.closings}</TabsTrigger>
        {can('cheques.manage') ? <TabsTrigger value="cheques">{REGISTER_TEXTS.cheques}</TabsTrigger> : null}
        <TabsTrigger value="cancellations">{REGISTER_TEXTS.cancellations}</TabsTrigger>
      </TabsList>
      <TabsContent value="closings">
        <ClosingsReport />
      </TabsContent>
      <TabsContent value="cheques">
        <ChequeRegister />
      </TabsContent>
      <TabsContent value="cancellations">
        <CancellationRegister />
      </TabsContent>
    </Tabs>
  );
}
