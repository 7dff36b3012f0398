import { CustomerAccount } from "./customer-account.js";

/** What a NestJS app would inject with `@Injectable()`: data access the model must never see. */
export class CustomerRepository {
  readonly connection = "postgres://crm:secret@db.internal/crm";
  private readonly accounts = [
    new CustomerAccount("a-1", "ada@example.com", 120.5, this),
    new CustomerAccount("a-2", "grace@example.com", -15, this),
  ];

  byEmail(email: string): CustomerAccount | undefined {
    return this.accounts.find((a) => a.email === email);
  }

  invoicesOf(accountId: string): string[] {
    return accountId === "a-1" ? ["INV-7 (paid)", "INV-9 (open)"] : ["INV-3 (overdue)"];
  }
}
