/** The four policy pages of operations §2, under the names the router loads. */
export { PrivacyPage } from './privacy-page';
export { RefundsPage } from './refunds-page';
export { ShippingPage } from './shipping-page';
export { TermsPage } from './terms-page';
