CREATE TABLE "news" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"category_id" integer DEFAULT 0 NOT NULL,
	"lang" varchar(8) NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "news_lang_created_idx" ON "news" USING btree ("lang","created_at");--> statement-breakpoint
CREATE INDEX "orders_closed_at_idx" ON "orders" USING btree ("closed_at") WHERE "orders"."status" = 3;