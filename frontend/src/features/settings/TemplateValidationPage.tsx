import { NotAvailableYet } from '../../components/NotAvailableYet';

export default function TemplateValidationPage() {
  return <NotAvailableYet title="Template validation" />;
}
