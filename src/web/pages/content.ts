/** Words of the /about and /faq pages (loaded with those pages only). */

export const about = {
  title: 'About Chipless',
  lead: 'Chipless is a free web app for friends who play poker at a real table, with a real deck, and no chips.',
  sections: [
    {
      heading: 'Why we built it',
      paragraphs: [
        'Poker night keeps happening in places where nobody brought a chip set: a holiday rental, a camping trip, a kitchen table. Paper and pencil work until the first side pot.',
        'Chipless keeps the numbers so you can keep the game. Cards stay real, the banter stays real, and the arithmetic moves to the phones in your pockets.',
      ],
    },
    {
      heading: 'How it works',
      paragraphs: [
        'One person hosts: they open a room on their phone and get a 5-character code. Everyone else joins from their own phone with that code, or by scanning the QR code in the lobby. No download, no sign-up.',
        'The app tracks every stack, posts the blinds, knows whose turn it is, builds side pots when someone goes all-in, and lets the host declare the winners at showdown.',
        'When the night is over, the host ends the game and Chipless shows who owes whom: never more payments than there are players, less one.',
      ],
    },
    {
      id: 'support',
      heading: 'Support Chipless',
      paragraphs: [
        'Chipless is free, with no ads and no sign-up. The best support is to use it at your next poker night and tell the friends around the table.',
        'Found a bug or have an idea? Write to us from the Contact section of the menu on the home screen.',
      ],
    },
    {
      heading: 'What it does not do',
      paragraphs: [
        'Chipless never deals cards and never handles money. It is a scorekeeper for friends; settle up however you like.',
      ],
    },
  ],
};

export const faq = {
  title: 'Frequently Asked Questions',
  items: [
    {
      q: 'Do we need to download anything or sign up?',
      a: 'No. Open the site in any modern phone browser. You get an anonymous seat automatically; just type your name.',
    },
    {
      q: 'How do my friends join?',
      a: 'Tap "Start a Game" to create a room. Friends tap "Join with Code" and type the 5-character room code, or scan the QR code shown in the lobby. The host approves each player, and a friend who arrives late can still join: the room code is at the bottom of the table (tap it for the QR code), and once approved, they are dealt in from the next hand.',
    },
    {
      q: 'Does the app deal the cards?',
      a: 'No. Deal a real deck as usual. The app shows how many community cards should be on the table at each stage.',
    },
    {
      q: 'How do blinds work?',
      a: 'The host sets the small and big blind in the lobby ($1.00 and $2.00 by default). The dealer button and the blinds move to the next player with chips every hand. To raise the blinds as the night goes on, the host taps "Change Blinds" at the bottom of the table: the new blinds apply from the next hand, and every phone shows them.',
    },
    {
      q: 'We joined in a different order from how we sit. Who deals?',
      a: 'The app deals, posts the blinds and asks for actions in seat order. The host taps "Arrange Seats" under the players in the lobby and puts everyone in the order they sit, going clockwise; the first player deals first. A latecomer can be moved to their chair between hands, from the bottom of the table.',
    },
    {
      q: 'Someone is stepping away for a while. Do they keep paying blinds?',
      a: 'No. They tap the leave button and choose "Sit Out Instead" (or the host does it from the remove button): they keep their seat and chips and are dealt out from the next hand, blinds included, until they tap "I\'m Back". If their phone is what went away, the host brings them back from the same remove button.',
    },
    {
      q: 'What happens when someone goes all-in?',
      a: 'Chipless builds side pots automatically. At showdown the host picks the winner of each pot, and can split a pot between several players.',
    },
    {
      q: 'Can players buy more chips?',
      a: 'Yes. The host can add chips to any player with "Rebuys": between hands, or to a player who is out of the hand on the table (chips cannot be added to a hand that is being played). Rebuys count toward what that player put in, so the final settlement stays fair.',
    },
    {
      q: 'What if the host has to leave early?',
      a: 'The host taps the leave button at the top of the table and makes someone else the host first. The game goes on, and the chips the host leaves with count in the final settlement. Ending the game for everyone is "End Game". If the host\'s phone dies, any player can "Take Over as Host" once the table has waited 3 minutes.',
    },
    {
      q: 'Is it safe to refresh the page or lock the phone?',
      a: 'Yes. Your seat is kept on the server. If the connection drops, the app shows "Reconnecting…" and picks up exactly where you were.',
    },
    {
      q: 'Can two of us play from one phone?',
      a: "Not from the same browser: a phone's browser is one player, and every tab of it opens the same seat. The second player opens a private (incognito) tab and joins from there, or uses their own phone.",
    },
    {
      q: 'My phone lost its seat. What now?',
      a: 'Your seat is remembered by the browser you joined in, so open the game there again (your phone\'s browser rather than the one inside a chat app, if you can). If that phone is flat or lost, or its browser has forgotten the seat (its data was cleared, or it was a private tab), the host taps the phone button by your seat at the table (it shows while your phone is away) and you open the link it makes on another phone, or scan its code: your own new phone, or a private tab on a friend\'s. That phone becomes you for this game, with the same seat and chips (once the game is over for it, or you tap "Give This Phone Back" under the leave button, it is its owner\'s phone again). The link works once, for 15 minutes; a newer one replaces it, and your own phone coming back makes it stop working. The host\'s own seat cannot be moved: a host whose phone is about to die makes someone else the host first, and if it is gone already a player takes over as host after 3 minutes, and can then move it. In the lobby the old way stays: "Name already taken" stops you from joining again under your name, so the host removes your old seat and you join again.',
    },
    {
      q: 'How is the final settlement computed?',
      a: "Each player's result is their final chips minus everything they bought in for. The biggest loser pays the biggest winner, again and again, until everyone is square: each payment settles at least one player, so there are never more payments than there are players, less one.",
    },
    {
      q: 'Is Chipless free?',
      a: 'Yes, completely. If you enjoy it, there is a support link on the home screen.',
    },
  ],
};
