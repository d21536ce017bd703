"""Telling players what happened while they were away: the channels and their
messages. What to say to whom, and when, is decided by
``cardroom.service.notices``; this package only speaks the protocols.

| module | what is in it |
|---|---|
| ``settings`` | ``NotifySettings`` from ``CARDROOM_*`` variables: SMTP, VAPID file, links, delays |
| ``vapid`` | the room's VAPID key pair (RFC 8292), made on first use, kept mode 0600 |
| ``webpush`` | one encrypted push (RFC 8291, aes128gcm) to one browser subscription |
| ``email`` | one plain-text email through the configured SMTP server |
| ``messages`` | what notices say: titles, bodies, the push payload, the email text |
| ``channels`` | one message for one or more notices, by push to every browser or by email |
"""
