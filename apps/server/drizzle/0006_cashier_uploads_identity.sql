CREATE TABLE "cashier_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" bigint NOT NULL,
	"status" smallint NOT NULL,
	"actor" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" smallint NOT NULL,
	"currency_code" text NOT NULL,
	"protocol_code" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"bank_address" text DEFAULT '' NOT NULL,
	"bank_swift" text DEFAULT '' NOT NULL,
	"payee_name" text DEFAULT '' NOT NULL,
	"payee_account" text DEFAULT '' NOT NULL,
	"bank_remark" text DEFAULT '' NOT NULL,
	"min_amount" numeric(20, 2) NOT NULL,
	"max_amount" numeric(20, 2) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"channel_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"currency_code" text NOT NULL,
	"protocol_code" text,
	"pay_to" text NOT NULL,
	"from_address" text,
	"amount" numeric(20, 2) NOT NULL,
	"credited_amount" numeric(20, 2),
	"proof_upload_id" varchar(22) NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"remark" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_methods" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"type" smallint NOT NULL,
	"currency_id" integer NOT NULL,
	"address" text,
	"bank_name" text,
	"bank_address" text,
	"bank_swift" text,
	"payee_name" text,
	"payee_account" text,
	"bank_branch" text,
	"remark" text,
	"usable_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "real_name_records" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"review_status" smallint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"card_id_sealed" text NOT NULL,
	"card_id_last4" text NOT NULL,
	"front_upload_id" varchar(22) NOT NULL,
	"reverse_upload_id" varchar(22) NOT NULL,
	"reason" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" varchar(22) PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_currencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" smallint NOT NULL,
	"code" text NOT NULL,
	"protocol" text DEFAULT '' NOT NULL,
	"fee_type" smallint NOT NULL,
	"draw_rate" numeric(20, 8) NOT NULL,
	"usd_price" numeric(24, 8) NOT NULL,
	"min_amount" numeric(20, 2) NOT NULL,
	"max_amount" numeric(20, 2) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"type" smallint NOT NULL,
	"currency_id" integer NOT NULL,
	"method_id" bigint NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"fee" numeric(20, 2) NOT NULL,
	"usd_price" numeric(24, 8) NOT NULL,
	"received" numeric(20, 2) NOT NULL,
	"currency_code" text NOT NULL,
	"protocol" text NOT NULL,
	"address" text,
	"bank_name" text,
	"payee_account" text,
	"memo" text,
	"status" smallint DEFAULT 0 NOT NULL,
	"remark" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_channel_id_deposit_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."deposit_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_proof_upload_id_uploads_id_fk" FOREIGN KEY ("proof_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_currency_id_withdraw_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."withdraw_currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_name_records" ADD CONSTRAINT "real_name_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_name_records" ADD CONSTRAINT "real_name_records_front_upload_id_uploads_id_fk" FOREIGN KEY ("front_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_name_records" ADD CONSTRAINT "real_name_records_reverse_upload_id_uploads_id_fk" FOREIGN KEY ("reverse_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_currency_id_withdraw_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."withdraw_currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_method_id_payout_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payout_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cashier_events_ref_idx" ON "cashier_events" USING btree ("ref_type","ref_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "cashier_events_once" ON "cashier_events" USING btree ("ref_type","ref_id","status");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_status_idx" ON "deposits" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_proof_once" ON "deposits" USING btree ("proof_upload_id");--> statement-breakpoint
CREATE INDEX "payout_methods_user_idx" ON "payout_methods" USING btree ("user_id","type");--> statement-breakpoint
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_cashier_once" ON "ledger_entries" USING btree ("ref_type","ref_id","type") WHERE "ledger_entries"."ref_type" IN ('deposit', 'withdrawal');