ALTER TABLE "users" ADD COLUMN "country" varchar(2);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "risk_disclosure_version" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "risk_disclosure_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "demo_owner_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_demo_owner_id_users_id_fk" FOREIGN KEY ("demo_owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_demo_owner_unique" ON "users" USING btree ("demo_owner_id");