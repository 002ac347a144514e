CREATE TABLE "copies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"follower_id" bigint NOT NULL,
	"provider_id" bigint NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"stop_loss_pct" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"stop_reason" text,
	"keep_positions" boolean DEFAULT false NOT NULL,
	"realised" numeric(24, 6) DEFAULT '0' NOT NULL,
	"high_water_mark" numeric(24, 6) DEFAULT '0' NOT NULL,
	"fees_paid" numeric(20, 2) DEFAULT '0' NOT NULL,
	"last_settled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"copy_from" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "copy_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"copy_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"provider_order_id" bigint,
	"order_id" bigint,
	"code" text,
	"side" smallint,
	"lots" numeric(20, 4),
	"price" numeric(24, 10),
	"skip_reason" text,
	"stop_reason" text,
	"amount" numeric(24, 6),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copy_orders" (
	"copy_id" bigint NOT NULL,
	"provider_order_id" bigint NOT NULL,
	"follower_order_id" bigint,
	"status" text NOT NULL,
	"skip_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "copy_orders_copy_id_provider_order_id_pk" PRIMARY KEY("copy_id","provider_order_id")
);
--> statement-breakpoint
CREATE TABLE "copy_providers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"nickname" text NOT NULL,
	"nickname_key" text NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"fee_pct" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"suspended_reason" text,
	"hidden" boolean DEFAULT false NOT NULL,
	"automated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "copy_providers_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "copy_providers_nickname_key_unique" UNIQUE("nickname_key")
);
--> statement-breakpoint
CREATE TABLE "equity_snapshots" (
	"user_id" bigint NOT NULL,
	"day" text NOT NULL,
	"equity" numeric(20, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "equity_snapshots_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_provider_id_copy_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."copy_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_activity" ADD CONSTRAINT "copy_activity_copy_id_copies_id_fk" FOREIGN KEY ("copy_id") REFERENCES "public"."copies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_orders" ADD CONSTRAINT "copy_orders_copy_id_copies_id_fk" FOREIGN KEY ("copy_id") REFERENCES "public"."copies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_orders" ADD CONSTRAINT "copy_orders_provider_order_id_orders_id_fk" FOREIGN KEY ("provider_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_orders" ADD CONSTRAINT "copy_orders_follower_order_id_orders_id_fk" FOREIGN KEY ("follower_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_providers" ADD CONSTRAINT "copy_providers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equity_snapshots" ADD CONSTRAINT "equity_snapshots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "copies_one_live" ON "copies" USING btree ("follower_id","provider_id") WHERE "copies"."status" <> 'stopped';--> statement-breakpoint
CREATE INDEX "copies_provider_idx" ON "copies" USING btree ("provider_id","status");--> statement-breakpoint
CREATE INDEX "copy_activity_copy_idx" ON "copy_activity" USING btree ("copy_id","id");--> statement-breakpoint
CREATE INDEX "copy_orders_provider_idx" ON "copy_orders" USING btree ("provider_order_id");--> statement-breakpoint
CREATE INDEX "copy_orders_open_idx" ON "copy_orders" USING btree ("copy_id") WHERE "copy_orders"."status" = 'open';--> statement-breakpoint
CREATE INDEX "equity_snapshots_day_idx" ON "equity_snapshots" USING btree ("day");