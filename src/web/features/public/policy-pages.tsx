export const PrivacyPage = () => <p className="p-6">Privacy</p>;
export const TermsPage = () => <p className="p-6">Terms</p>;
export const RefundsPage = () => <p className="p-6">Refunds</p>;
export const ShippingPage = () => <p className="p-6">Shipping</p>;
