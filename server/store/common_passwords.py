"""Passwords too common to accept for a new account.

Two parts, both compared with the password case folded and stripped of surrounding spaces
(:func:`server.store.accounts.check_password` calls :func:`is_common_password`):

* :data:`COMMON_PASSWORDS`, the passwords people choose most often (English and German),
  of the length the policy would otherwise let through (8 characters or more), and a few
  this site invites;
* words that are weak with any number around them (:func:`is_common_password`): the
  site's own words (``stammtisch``, ``kartenspiel``, card and game words), the games'
  names and titles and the words of their titles, taken from the game registry at run
  time (:data:`server.engine.registry.GAMES`, so that no game is named here), and the
  stems people put a year or a number behind (``passwort``, ``sommer``, ``hallo`` …):
  ``Stammtisch2026``, ``kartenspiel``, ``2024sommer``, ``hallo12345!`` are all refused.
  Spaces, hyphens and underscores between words do not count (``Karten-Spiel1``); a
  number must be attached to count as around a word.
"""

from __future__ import annotations

import re

from server.engine.registry import list_games

_LIST = """
00000000 000000000 0000000000 0123456789 0987654321 11111111 111111111 1111111111
11112222 11223344 112233445566 12121212 12341234 12344321 123123123 123321123
12345678 123456789 1234567890 12345678910 123456789a 12345678a 12345678910a 123456abc
123456qwerty 123654789 123698745 147258369 147852369 159357159 159753456 22222222
55555555 66666666 77777777 777777777 87654321 88888888 987654321 9876543210 99999999
a1234567 a12345678 aa123456 aaaaaaaa abc12345 abcd1234 abcdefg1 abcdefgh 1234abcd
1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx 1qaz2wsx3edc q1w2e3r4 q1w2e3r4t5 zaq12wsx
zaq1zaq1 !qaz2wsx qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 qwerty123456
qwertz12 qwertz123 qwertz1234 qwertzui qwertzuiop asdfghjk asdfghjkl asdf1234 asdfasdf
asdfjkl; yxcvbnm1 zxcvbnm1 zxcvbnm123 azertyuiop passpass password password1
password12 password123 password1234 password! password1! passw0rd p@ssw0rd p@ssword
pa$$word pa55word mypassword yourpassword password2 password01 thepassword
iloveyou iloveyou1 iloveyou2 iloveyou! lovelove loveyou1 lovely123 babygirl babygirl1
sunshine sunshine1 princess princess1 princess123 football football1 baseball
basketball superman superman1 batman123 starwars starwars1 trustno1 welcome1
welcome123 letmein1 letmein123 whatever whatever1 computer computer1 internet
michelle jennifer jessica1 charlie1 michael1 jordan23 liverpool liverpool1 chelsea1
arsenal1 manchester manutd99 master123 mustang1 dragon12 dragon123 monkey12 monkey123
shadow12 shadow123 killer12 freedom1 samsung1 samsung123 google123 facebook facebook1
pokemon1 minecraft minecraft1 fortnite fortnite1 butterfly chocolate cookie123
hello123 hello1234 helloworld changeme changeme1 default1 administrator admin123
admin1234 adminadmin root1234 secret12 secret123 test1234 test12345 testtest testing1
testing123 guest123 user1234 login123 access14 temp1234 qazwsxedc 1234qwer qwer1234
letmein! abcabc123 999999999 888888888 123qweasd 123qweasdzxc qweasdzxc qweasd123
passwort passwort1 passwort12 passwort123 passwort1234 passwort! passwort1! passw0rt
meinpasswort meinpasswort1 dasisteinpasswort neuespasswort kennwort kennwort1
kennwort123 meinkennwort zugang123 anmelden anmelden1 einloggen willkommen
willkommen1 willkommen123 hallo123 hallo1234 hallo12345 hallohallo hallihallo
hallo123! halloduda schatz123 schatz1234 schatzi1 schatzi123 schatzilein schatzimaus
mausi123 mausebaer mausebär mausezahn hase1234 hasenbraut schnecke schnucki
schnuckel engelchen blümchen gummibaer gummibär gummibärchen sternchen prinzessin
schmetterling sonnenschein sonnenblume sonnenschein1 ichliebedich ichliebedich1
liebedich ichbins123 ichbinich geheim12 geheim1234 geheimnis geheimes supergeheim
strenggeheim zuhause1 deutschland deutschland1 deutschland123 fussball fußball
fussball1 fußball1 fussball123 schalke04 schalke1904 borussia borussia09 bvb09bvb
dortmund dortmund09 bayern123 bayern1900 fcbayern fcbayern1 bayernmünchen
bayernmuenchen hamburger hamburg1 werderbremen muenchen münchen1 berlin123
frankfurt1 stuttgart köln1234 mercedes mercedes1 volkswagen porsche911 ferrari1
computer123 hundekuchen katzen123 pferdchen familie1 familie123 mamapapa mamapapa1
meinname tschüss1 servus123 grüßgott grussgott moinmoin moin1234 sommer123 winter123
herbst123 frühling frühling1 weihnachten weihnachten1 ostern123 sommer2020 sommer2021
sommer2022 sommer2023 sommer2024 sommer2025 sommer2026 winter2020 winter2021
winter2022 winter2023 winter2024 winter2025 winter2026 summer2020 summer2021
summer2022 summer2023 summer2024 summer2025 summer2026 password2024 password2025
passwort2024 passwort2025 passwort2026 januar123 dezember1 fickdich arschloch
scheisse scheiße wasserfall regenbogen zauberer schokolade kartoffel pusteblume
lieblingsmensch honigbiene glücksklee kleeblatt glückspilz dummkopf
schafkopf skatspiel skatrunde stammtisch stammtisch1
stammtisch123 tarock123 kreuzdame kreuzbube herzdame spielkarten
"""

#: The games this site invites, by their registry names (``name``, ``name1``, ``name123``;
#: only those as long as the policy's minimum, 8, are worth listing).
_GAMES = [
    word
    for game in list_games()
    for word in (f"{game.name}{tail}" for tail in ("", "1", "123"))
    if len(word) >= 8
]

#: The list, case folded (compare with ``password.strip().casefold()``).
COMMON_PASSWORDS = frozenset(word.casefold() for word in [*_LIST.split(), *_GAMES])

#: Words that are weak with digits before or after them (and ``!`` or ``.`` at the end):
#: the site's and the card table's, and the stems people put a year or a number behind.
_STEMS = """
stammtisch stammtische stammtischler kartenspiel kartenspiele kartenspielen karten
spielkarten spielkarte kartenrunde spielrunde spieleabend kartenabend spielabend
kartentisch spieltisch wirtshaus stammkneipe kneipe biergarten prost
tarock tarockrunde skat skatrunde skatspiel schafkopf watten jass binokel gaigel
trumpf stich stiche solo hochzeit armut kontra schneider schwarz ansage
kreuz pik herz karo eichel schellen laub gras ober unter koenig könig dame bube
kreuzdame kreuzbube herzdame herzbube pikdame karobube sau ass zehner
password passwort kennwort hallo hello login admin test gast guest
sommer winter summer herbst frühling fruehling januar februar märz maerz april mai
juni juli august september oktober november dezember
schatz schatzi mausi hase liebe iloveyou ichliebedich
fussball fußball football bayern schalke borussia dortmund werder
qwertz qwerty asdf abc abcd abcdef master dragon monkey shadow killer welcome letmein
"""

#: Everything around a stem that does not make a password stronger.
_AROUND = re.compile(r"^[0-9]*(?P<stem>.*?)[0-9]*[!.]*$")
#: What may stand between the words of a stem (between letters: a number must be
#: attached to count as around the stem).
_BETWEEN = re.compile(r"(?<=[^\W\d_])[-_\s]+(?=[^\W\d_])")


def _site_stems() -> frozenset[str]:
    """The stems: the list above and the games' names and titles (and the words of at
    least four letters of those) from the registry."""
    words = set(_STEMS.split())
    for game in list_games():
        for name in (game.name, game.title):
            words.add(re.sub(r"[-_\s]+", "", name.casefold()))
            words.update(w for w in re.split(r"[-_\s]+", name.casefold()) if len(w) >= 4)
    return frozenset(w.casefold() for w in words if w)


STEMS = _site_stems()


def is_common_password(folded: str) -> bool:
    """Whether ``folded`` (a password stripped and case folded) is too common: on the list,
    or one of :data:`STEMS` with digits before or after it and ``!`` or ``.`` at its end."""
    if folded in COMMON_PASSWORDS:
        return True
    joined = _BETWEEN.sub("", folded)
    match = _AROUND.fullmatch(joined)
    return joined in STEMS or (match is not None and match["stem"] in STEMS)
