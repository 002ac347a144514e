ALTER TABLE "withdraw_currencies" ADD COLUMN "usd_price_updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "rate_source" text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "rate_pair" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "rate_at" timestamp with time zone;