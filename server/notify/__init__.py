"""Notifications: Web Push to the players' devices and the daily e-mail digest.

* :mod:`server.notify.vapid`: the server's VAPID key pair, made on the first start and
  kept in ``app_meta`` (the same for every process);
* :mod:`server.notify.subscriptions`: the devices (push subscriptions) of a person;
* :mod:`server.notify.reminders`: when a correspondence turn's reminders are due;
* :mod:`server.notify.push`: sending one Web Push message (pywebpush, in a thread);
* :mod:`server.notify.mail`: e-mail addresses, their verification, the mails themselves
  (smtplib, in a thread);
* :mod:`server.notify.job`: the periodic job that reads the ``turns`` rows and sends.

It reads what the tables write (the ``turns`` rows) and never writes a table's state;
``docs/notifications.md`` describes what is sent when.
"""
