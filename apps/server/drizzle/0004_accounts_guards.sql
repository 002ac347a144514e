ALTER TABLE "users" ADD COLUMN "lang" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "demo_secret_hash" text;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "user_id" bigint;--> statement-breakpoint
CREATE INDEX "verification_codes_user_idx" ON "verification_codes" USING btree ("user_id","created_at");