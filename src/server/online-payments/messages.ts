/** What the paying routes say to a parent and to the clerk (one place, so docs and tests agree). */
export const PAY_VERIFY_FAILED = 'Payment verification failed. If money was deducted, the school will see it and contact you.';
export const PAY_ORDER_FAILED = 'The payment gateway could not start the payment. Please try again in a minute.';
export const PAY_NO_GATEWAY = 'This school takes online payments by UPI only: pay with the QR code or the UPI app link.';
export const PAY_NO_UPI = 'This school has not set up UPI payments.';
export const PAY_ORDER_UNKNOWN = 'Payment order not found for this link';
export const UPI_REFERENCE_TAKEN = 'This UPI reference was already submitted. The school will confirm it against its bank statement.';
export const UPI_REFERENCE_FORMAT = 'Enter the 12-digit UPI reference (UTR) shown in your UPI app';
