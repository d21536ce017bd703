"""The inventory: every control the pages render (tests/ui/inventory.py says how a
control is written) and the tests, as ``file::function`` under tests/, that click or
fill it and check its effect on the server. test_ui_inventory fails on a control
missing here, on one listed here that no state of the room shows, and on a listed test
that does not exist or never mentions its control."""

from __future__ import annotations

CONTROLS: dict[str, tuple[str, ...]] = {
    # -- account -------------------------------------------------------------------------
    "account | a | Skip to content": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "account | button | Change the password": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | button | Save notification settings": (
        "ui/test_ui_account_history.py::test_browser_notifications_and_email_are_saved_or_refused",
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | input:checkbox | As browser notifications while a page of the room is open": (
        "ui/test_ui_account_history.py::test_browser_notifications_and_email_are_saved_or_refused",
    ),
    "account | input:checkbox | By Web Push, even when the room is closed": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | input:checkbox | By email": (
        "ui/test_ui_account_history.py::test_browser_notifications_and_email_are_saved_or_refused",
    ),
    "account | input:checkbox | When half the clock is left": (
        "ui/test_ui_reminders.py::test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server",
    ),
    "account | input:checkbox | When a quarter of the clock is left": (
        "ui/test_ui_reminders.py::test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server",
    ),
    "account | input:checkbox | With a day left": (
        "ui/test_ui_reminders.py::test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server",
    ),
    "account | input:checkbox | With {n} hours left": (
        "ui/test_ui_reminders.py::test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server",
    ),
    "account | input:checkbox | With an hour left": (
        "ui/test_ui_reminders.py::test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server",
    ),
    "account | input:checkbox | With {n} minutes left": (
        "ui/test_ui_reminders.py::test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server",
    ),
    "account | input:checkbox | Four-colour deck (blue diamonds, green clubs)": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | input:checkbox | In the room's pages": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | input:email | Email address": (
        "ui/test_ui_account_history.py::test_browser_notifications_and_email_are_saved_or_refused",
    ),
    "account | input:password | Current password": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | input:password | New password": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "account | input:password | New password again": (
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    # -- admin ---------------------------------------------------------------------------
    "admin | a | Open": (
        "ui/test_ui_admin_controls.py::test_remove_suspend_reinstate_resume_and_open",
    ),
    "admin | a | Skip to content": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "admin | button | Fold a player": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
    ),
    "admin | button | More players": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
        "ui/test_ui_admin_controls.py::test_remove_suspend_reinstate_resume_and_open",
        "ui/test_ui_admin_controls.py::test_more_players_pressed_twice_lists_each_player_once",
    ),
    "admin | button | Mute in chat": (
        "ui/test_ui_admin_chat_mute.py::test_an_admin_mutes_a_player_in_every_chat_and_unmutes_them",
    ),
    "admin | button | Unmute in chat": (
        "ui/test_ui_admin_chat_mute.py::test_an_admin_mutes_a_player_in_every_chat_and_unmutes_them",
    ),
    "admin | button | Grant": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
    ),
    "admin | button | Pause": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
        "ui/test_ui_live.py::test_first_view_of_a_table_is_under_100_kb",
    ),
    "admin | button | Remove": (
        "ui/test_ui_admin_controls.py::test_remove_suspend_reinstate_resume_and_open",
    ),
    "admin | button | Resume": (
        "ui/test_ui_admin_controls.py::test_remove_suspend_reinstate_resume_and_open",
        "ui/test_ui_live.py::test_first_view_of_a_table_is_under_100_kb",
    ),
    "admin | button | Suspend": (
        "ui/test_ui_admin_controls.py::test_remove_suspend_reinstate_resume_and_open",
    ),
    # -- admin dialog: Grant, Fold a player, Pause... (opened by the inventory walk) -----
    "admin dialog | button | Cancel": (
        "ui/test_ui_dialogs.py::test_cancel_in_an_admin_dialog_changes_nothing",
    ),
    "admin dialog | button | Do it": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
        "ui/test_ui_admin_controls.py::test_remove_suspend_reinstate_resume_and_open",
    ),
    "admin dialog | input:text | Amount ($)": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
    ),
    "admin dialog | input:text | Reason": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
        "ui/test_ui_dialogs.py::test_cancel_in_an_admin_dialog_changes_nothing",
    ),
    "admin dialog | select | Player": (
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
    ),
    # -- game-history --------------------------------------------------------------------
    "game-history | a | Back to the table": (
        "ui/test_ui_table_links.py::test_the_table_links_its_ledger_and_both_lead_back",
    ),
    "game-history | a | Skip to content": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "game-history | button | Replay hand {n}": (
        "ui/test_ui_account_history.py::test_the_history_opens_a_game_by_link_and_by_number_and_replays_a_hand",
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    # -- header --------------------------------------------------------------------------
    "header | a | Account": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "header | a | Admin": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
        "ui/test_ui_pages.py::test_admin_grants_folds_an_inactive_player_and_pauses",
    ),
    "header | a | Cardroom": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "header | a | History": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "header | a | Notifications": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
        "ui/test_ui_phone_menu.py::test_the_phone_menu_reaches_every_page",
    ),
    "header | a | Statistics": (
        "ui/test_ui_statistics.py::test_the_statistics_page_shows_the_servers_figures_and_graph",
    ),
    "header | a | Lobby": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "header | a | Games waiting for your move: {n}": (
        "ui/test_ui_your_move.py::test_the_badge_title_and_lobby_follow_the_players_turns_live",
    ),
    "header | button | ☰ Menu": (
        "ui/test_ui_phone_menu.py::test_the_phone_menu_reaches_every_page",
    ),
    "header | button | Sign out": (
        "ui/test_ui_pages.py::test_leave_a_waiting_game_and_sign_out",
        "ui/test_ui_table_header.py::test_the_tables_header_fits_and_its_sign_out_ends_the_session",
    ),
    # -- ledger --------------------------------------------------------------------------
    "ledger | a | Back to the table": (
        "ui/test_ui_table_links.py::test_the_table_links_its_ledger_and_both_lead_back",
    ),
    "ledger | a | Download CSV": (
        "ui/test_ui_ledger.py::test_the_ledger_page_and_its_csv_match_the_server",
    ),
    "ledger | a | The table's hands": (
        "ui/test_ui_table_links.py::test_the_table_links_its_ledger_and_both_lead_back",
    ),
    "ledger | a | Skip to content": (
        "ui/test_ui_ledger.py::test_the_ledger_page_and_its_csv_match_the_server",
    ),
    # -- notifications -------------------------------------------------------------------
    "notifications | a | Skip to content": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "notifications | a | Your turn in game {n}": (
        "ui/test_ui_notifications.py::test_notices_newest_first_marked_read_and_opening_their_table",
    ),
    "notifications | a | Game {n} has started": (
        "ui/test_ui_notifications.py::test_notices_newest_first_marked_read_and_opening_their_table",
    ),
    "notifications | button | Mark as read": (
        "ui/test_ui_notifications.py::test_notices_newest_first_marked_read_and_opening_their_table",
    ),
    "notifications | button | Mark all as read": (
        "ui/test_ui_notifications.py::test_notices_newest_first_marked_read_and_opening_their_table",
    ),
    "notifications | button | More": (
        "ui/test_ui_notifications.py::test_more_pages_back_and_a_player_without_notices_is_told_so",
    ),
    # -- history -------------------------------------------------------------------------
    "history | a | #{n} · Arena": (
        "ui/test_history_list.py::test_a_points_game_you_left_is_listed_with_its_hands",
    ),
    "history | a | PHH": ("ui/test_ui_pages.py::test_account_history_and_rules",),
    "history | a | PokerStars text": ("ui/test_ui_pages.py::test_account_history_and_rules",),
    "history | a | Skip to content": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "history | button | Open a table's hands": (
        "ui/test_ui_account_history.py::test_the_history_opens_a_game_by_link_and_by_number_and_replays_a_hand",
    ),
    "history | button | Replay hand {n} of game #{n}": (
        "ui/test_ui_account_history.py::test_the_history_opens_a_game_by_link_and_by_number_and_replays_a_hand",
        "ui/test_ui_pages.py::test_account_history_and_rules",
    ),
    "history | input:text | Game number": (
        "ui/test_ui_account_history.py::test_the_history_opens_a_game_by_link_and_by_number_and_replays_a_hand",
    ),
    # -- invite (an invite link, /invite/<token>) -----------------------------------------
    "invite | a | Create an account": (
        "ui/test_ui_invite.py::test_a_private_table_found_only_through_its_link",
    ),
    "invite | a | Go to the lobby": ("ui/test_ui_invite.py::test_a_wrong_link_says_so",),
    "invite | a | Sign in": (
        "ui/test_ui_invite.py::test_a_signed_in_player_and_a_signed_out_one_reach_the_table",
    ),
    "invite | a | Skip to content": (
        "ui/test_ui_invite.py::test_a_private_table_found_only_through_its_link",
    ),
    # -- lobby ---------------------------------------------------------------------------
    "lobby | a | Create a game": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | a | Open": (
        "ui/test_ui_admin_controls.py::test_the_lobby_opens_your_table_and_watches_anothers",
    ),
    "lobby | a | Play against bots": (
        "ui/test_ui_practice.py::test_play_against_bots_from_the_lobby",
    ),
    "lobby | a | Skip to content": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "lobby | a | Watch": (
        "ui/test_ui_admin_controls.py::test_the_lobby_opens_your_table_and_watches_anothers",
    ),
    "lobby | button | Create the game": (
        "ui/test_ui_play.py::test_two_players_play_to_a_fold_and_a_showdown",
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | button | Join for {n}": (
        "ui/test_ui_join_cost.py::test_a_join_the_balance_does_not_cover_is_marked_and_not_sent",
        "ui/test_ui_join_cost.py::test_the_rooms_refusal_of_a_join_stays_on_the_page",
    ),
    "lobby | button | Leave": ("ui/test_ui_pages.py::test_leave_a_waiting_game_and_sign_out",),
    "lobby | button | Play against bots": (
        "ui/test_ui_practice.py::test_play_against_bots_from_the_lobby",
    ),
    "lobby | button | Start": (
        "ui/test_ui_table_admin.py::test_the_host_starts_a_waiting_game_from_the_lobby",
    ),
    "lobby | input:checkbox | Allow spectators": (
        "ui/test_ui_spectators.py::test_a_table_without_spectators_is_refused_to_a_user_without_a_seat",
    ),
    "lobby | input:checkbox | Spectators may chat": (
        "ui/test_ui_spectators.py::test_a_spectator_sees_the_count_no_hole_card_and_may_chat",
    ),
    "lobby | input:checkbox | Private: only people with the link can find it": (
        "ui/test_ui_invite.py::test_a_private_table_found_only_through_its_link",
    ),
    "lobby | input:checkbox | Take a seat (pays the buy-in now)": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | input:number | Every": (
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
        "ui/test_ui_create_form.py::test_an_arena_table_in_points",
    ),
    "lobby | input:text | Big blind": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
        "ui/test_ui_create_form.py::test_an_arena_table_in_points",
    ),
    "lobby | input:text | Buy-in ($)": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
        "ui/test_ui_play.py::test_two_players_play_to_a_fold_and_a_showdown",
    ),
    "lobby | input:text | Entry ($)": (
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
    ),
    "lobby | input:text | Prizes (% per place)": (
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
    ),
    "lobby | input:text | Small blind": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
        "ui/test_ui_create_form.py::test_an_arena_table_in_points",
    ),
    "lobby | input:text | Starting points": (
        "ui/test_ui_create_form.py::test_an_arena_table_in_points",
    ),
    "lobby | select | Between hands": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Bots": ("ui/test_ui_practice.py::test_play_against_bots_from_the_lobby",),
    "lobby | select | Format": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
    ),
    "lobby | select | Full big blind call (BGC {n}a)": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Idle seats removable": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Level": ("ui/test_ui_practice.py::test_play_against_bots_from_the_lobby",),
    "lobby | select | Minimum raise": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Raise cap": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Raise the blinds": (
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
        "ui/test_ui_create_form.py::test_an_arena_table_in_points",
    ),
    "lobby | select | Rebuy at zero (cash)": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Rules": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
    ),
    "lobby | select | Seats": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
        "ui/test_ui_create_form.py::test_a_tournament_with_prizes_and_rising_blinds",
    ),
    "lobby | select | Short all-ins add up": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Showdown": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Timeouts before cash-out": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | select | Turn clock": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    "lobby | summary | More rules": (
        "ui/test_ui_create_form.py::test_a_cash_game_with_every_rule_changed",
    ),
    # -- sign-in -------------------------------------------------------------------------
    "sign-in | a | Create an account": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
    ),
    "sign-in | a | Skip to the form": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
    ),
    "sign-in | button | Sign in": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "sign-in | input:password | Password": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "sign-in | input:text | Name": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    # -- sign-up -------------------------------------------------------------------------
    "sign-up | a | Sign in": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
    ),
    "sign-up | a | Skip to the form": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
    ),
    "sign-up | button | Create the account": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
    ),
    "sign-up | input:password | Password": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "sign-up | input:password | Password again": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
    ),
    "sign-up | input:text | Invitation code": (
        "ui/test_sign_up_invitation.py::test_sign_up_with_the_rooms_invitation_code",
    ),
    "sign-up | input:text | Name": (
        "ui/test_ui_navigation.py::test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account",
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    # -- stats ---------------------------------------------------------------------------
    "stats | a | Ledger": (
        "ui/test_ui_ledger.py::test_the_ledger_page_and_its_csv_match_the_server",
    ),
    "stats | a | Skip to content": (
        "ui/test_ui_statistics.py::test_the_statistics_page_shows_the_servers_figures_and_graph",
    ),
    "stats | a | Table #{n}": (
        "ui/test_ui_statistics.py::test_the_statistics_page_shows_the_servers_figures_and_graph",
    ),
    "stats | select | Table": (
        "ui/test_ui_statistics.py::test_the_statistics_page_shows_the_servers_figures_and_graph",
    ),
    # -- table ---------------------------------------------------------------------------
    # the table's chat (js/table/chat.js)
    "table | button | Delete {player}'s message": (
        "ui/test_ui_chat.py::test_the_host_turns_chat_off_and_an_admin_deletes_and_mutes",
    ),
    "table | button | Mute {player} at this table": (
        "ui/test_ui_chat.py::test_the_host_turns_chat_off_and_an_admin_deletes_and_mutes",
    ),
    "table | button | Send": (
        "ui/test_ui_chat.py::test_two_players_chat_live_and_the_sixth_quick_message_is_refused",
        "ui/test_ui_spectators.py::test_a_spectator_sees_the_count_no_hole_card_and_may_chat",
    ),
    "table | input:checkbox | Chat on": (
        "ui/test_ui_chat.py::test_the_host_turns_chat_off_and_an_admin_deletes_and_mutes",
    ),
    "table | input:text | Message": (
        "ui/test_ui_chat.py::test_two_players_chat_live_and_the_sixth_quick_message_is_refused",
        "ui/test_ui_spectators.py::test_a_spectator_sees_the_count_no_hole_card_and_may_chat",
    ),
    "table | a | History": (
        "ui/test_ui_table_controls.py::test_take_a_given_seat_and_the_pages_tools",
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "table | a | Ledger": (
        "ui/test_ui_table_links.py::test_the_table_links_its_ledger_and_both_lead_back",
    ),
    "table | a | Skip to your actions": (
        "ui/test_ui_navigation.py::test_the_header_and_skip_links_of_every_signed_in_page",
    ),
    "table | button | All-in: {n}": ("ui/test_ui_amount_box.py::test_all_in_only_when_chosen",),
    "table | button | Bet {n}": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | button | Call {n}": ("ui/test_ui_live.py::test_keyboard_raise_notice_and_reconnect",),
    "table | button | Cash out": (
        "ui/test_ui_seat_commands.py::test_cash_out_between_hands_brings_the_stack_back",
        "ui/test_ui_seat_commands.py::test_cash_out_during_a_hand_waits_for_its_end",
    ),
    "table | button | Copy link": (
        "ui/test_ui_invite.py::test_a_private_table_found_only_through_its_link",
    ),
    "table | button | Check": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | button | Continue ({time})": (
        "ui/test_ui_play.py::test_two_players_play_to_a_fold_and_a_showdown",
        "ui/test_ui_control_states.py::test_the_controls_in_every_state",
    ),
    "table | button | Fold": (
        "ui/test_ui_play.py::test_two_players_play_to_a_fold_and_a_showdown",
    ),
    "table | button | Fold {player}": (
        "ui/test_ui_table_admin.py::test_an_admin_folds_the_player_to_act_pauses_and_resumes",
    ),
    "table | button | I'm back": ("ui/test_ui_seat_commands.py::test_sit_out_and_back",),
    "table | button | Join for {n}": (
        "ui/test_ui_join_cost.py::test_a_join_the_balance_does_not_cover_is_marked_and_not_sent",
        "ui/test_ui_join_cost.py::test_the_rooms_refusal_of_a_join_stays_on_the_page",
    ),
    "table | button | Leave (refund the buy-in)": (
        "ui/test_ui_seat_commands.py::test_leave_a_waiting_game_refunds_the_buy_in",
        "ui/test_ui_control_states.py::test_the_controls_in_every_state",
    ),
    "table | button | Leave (refund the entry)": (
        "ui/test_ui_seat_commands.py::test_leave_a_waiting_tournament_refunds_the_entry",
    ),
    "table | button | Leave the table": (
        "ui/test_ui_seat_commands.py::test_cash_out_between_hands_brings_the_stack_back",
        "ui/test_ui_seat_commands.py::test_leave_a_per_hand_table",
    ),
    "table | button | Min: {n}": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | button | Pause the table": (
        "ui/test_ui_live.py::test_first_view_of_a_table_is_under_100_kb",
        "ui/test_ui_table_admin.py::test_an_admin_folds_the_player_to_act_pauses_and_resumes",
    ),
    "table | button | Pot: {n}": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | button | Raise to {n}": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
        "ui/test_ui_amount_box.py::test_the_box_is_in_dollars_and_the_button_follows_it",
    ),
    "table | button | Rebuy for {n}": ("ui/test_ui_seat_commands.py::test_rebuy_at_zero_chips",),
    "table | button | Resume the table": (
        "ui/test_ui_table_admin.py::test_an_admin_folds_the_player_to_act_pauses_and_resumes",
    ),
    "table | button | Rules": ("ui/test_ui_pages.py::test_account_history_and_rules",),
    "table | button | Seat them": ("ui/test_ui_pages.py::test_practice_bots_fill_a_points_table",),
    "table | button | Settings": (
        "ui/test_ui_table_controls.py::test_take_a_given_seat_and_the_pages_tools",
    ),
    "table | button | Sit at seat {n} for {n}": (
        "ui/test_ui_table_controls.py::test_take_a_given_seat_and_the_pages_tools",
    ),
    "table | button | Sit out": (
        "ui/test_ui_seat_commands.py::test_sit_out_and_back",
        "ui/test_ui_control_states.py::test_the_controls_in_every_state",
    ),
    "table | button | Skip waiting and deal": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | button | Start the game": (
        "ui/test_ui_play.py::test_two_players_play_to_a_fold_and_a_showdown",
        "ui/test_ui_control_states.py::test_the_controls_in_every_state",
    ),
    "table | button | ½ Pot: {n}": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | input:range | Bet amount": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | input:range | Raise to amount": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | input:text | Bet amount": (
        "ui/test_ui_table_controls.py::test_sizes_slider_check_bet_and_skip_waiting",
    ),
    "table | input:text | Invite link": (
        "ui/test_ui_invite.py::test_a_private_table_found_only_through_its_link",
    ),
    "table | input:text | Raise to amount": (
        "ui/test_ui_amount_box.py::test_the_box_is_in_dollars_and_the_button_follows_it",
        "ui/test_ui_amount_box.py::test_too_much_is_shown_and_not_sent",
    ),
    "table | select | Level": ("ui/test_ui_pages.py::test_practice_bots_fill_a_points_table",),
    "table | select | Practice bots": (
        "ui/test_ui_pages.py::test_practice_bots_fill_a_points_table",
    ),
    "table | summary | Admin": (
        "ui/test_ui_table_admin.py::test_an_admin_folds_the_player_to_act_pauses_and_resumes",
    ),
    "table | summary | Host": ("ui/test_ui_live.py::test_first_view_of_a_table_is_under_100_kb",),
    "table | summary | Table log": (
        "ui/test_ui_table_controls.py::test_take_a_given_seat_and_the_pages_tools",
    ),
    # -- table dialog: Rules, Settings and the confirmations (opened by the walk) ------
    "table dialog | button | Close": (
        "ui/test_ui_table_controls.py::test_take_a_given_seat_and_the_pages_tools",
        "ui/test_ui_dialogs.py::test_the_settings_turn_notifications_show_the_next_turn",
    ),
    "table dialog | button | No": (
        "ui/test_ui_dialogs.py::test_no_in_a_confirmation_sends_nothing",
    ),
    "table dialog | button | Yes": (
        "ui/test_ui_seat_commands.py::test_cash_out_between_hands_brings_the_stack_back",
        "ui/test_ui_table_admin.py::test_an_admin_folds_the_player_to_act_pauses_and_resumes",
    ),
    "table dialog | input:checkbox | Four-colour deck (blue diamonds, green clubs)": (
        "ui/test_ui_table_controls.py::test_take_a_given_seat_and_the_pages_tools",
    ),
    "table dialog | input:checkbox | Tell me when it is my turn (browser notification)": (
        "ui/test_ui_dialogs.py::test_the_settings_turn_notifications_show_the_next_turn",
    ),
    "table dialog | input:text | Reason (kept in the admin log)": (
        "ui/test_ui_table_admin.py::test_an_admin_folds_the_player_to_act_pauses_and_resumes",
        "ui/test_ui_dialogs.py::test_no_in_a_confirmation_sends_nothing",
    ),
}
