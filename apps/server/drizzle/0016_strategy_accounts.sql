CREATE TABLE "strategy_accounts" (
	"strategy" varchar(32) PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"provider_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "strategy_accounts_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "strategy_accounts" ADD CONSTRAINT "strategy_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;