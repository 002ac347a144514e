CREATE TABLE "pending_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"maker_id" bigint NOT NULL,
	"maker_email" text NOT NULL,
	"checker_id" bigint,
	"checker_email" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "created_by_id" bigint;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "enrolled_by_id" bigint;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "enrolment_token_hash" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "enrolment_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_maker_id_operators_id_fk" FOREIGN KEY ("maker_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_checker_id_operators_id_fk" FOREIGN KEY ("checker_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_changes_status_idx" ON "pending_changes" USING btree ("status","id");--> statement-breakpoint
-- Operators made before this knew their maker only by e-mail: the one who made them was also handed their password and code.
UPDATE "operators" AS o SET "created_by_id" = m."id", "enrolled_by_id" = m."id" FROM "operators" AS m WHERE o."created_by" = 'operator:' || m."email";
