ALTER TABLE "adjustments" ADD COLUMN "internal_note" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "internal_note" text;--> statement-breakpoint
ALTER TABLE "real_name_records" ADD COLUMN "internal_note" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "internal_note" text;--> statement-breakpoint
-- The example wire channels told users, in English only, to write their UID; the app now shows the reference itself, in their language.
UPDATE "deposit_channels" SET "bank_remark" = '' WHERE "bank_remark" = 'Write your UID in the payment reference.';
