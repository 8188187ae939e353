// Training corpus of the built-in assistant: varied English phrasings per intent. The NLU (node-nlp) is
// trained from these at start; the spelling corrector takes its vocabulary from them too.

/** Conversation intents other than submitting a form. */
export const INTENT_CORPUS: Record<string, readonly string[]> = {
  greet: [
    'hi', 'hello', 'hey', 'hey there', 'hello there', 'good morning', 'good afternoon', 'good evening', 'hiya', 'morning',
    'hi chief smile officer', 'hello cso', 'greetings', 'howdy', 'hi there, how are you', 'how are you doing today',
    'hey, how is it going', 'yo', 'hello again', 'good day',
  ],
  help: [
    'what can you do', 'what can you help me with', 'help', 'help me', 'how can you help me', 'what are your capabilities',
    'what do you do', 'show me what you can do', 'I need some help', 'what kind of things can I ask you', 'what services do you offer',
    'what are my options', 'how does this work', 'what can I ask you', 'what are you able to do', 'which requests can you handle',
    'can you help me', 'what can I do here', 'list your features', 'how do I use you', 'what tasks can you do for me',
  ],
  thanks: [
    'thanks', 'thank you', 'thank you so much', 'thanks a lot', 'cheers', 'great, thanks', 'that was helpful', 'I appreciate it',
    'perfect, thank you', 'awesome thanks', 'many thanks', 'nice one', 'brilliant, thanks', 'thanks for your help',
  ],
  bye: [
    'bye', 'goodbye', 'see you', 'see you later', "that's all", 'nothing else', 'have a nice day', 'talk to you later',
    "that's everything for now", 'bye bye', 'I am done', 'catch you later',
  ],
  identity: [
    'who are you', 'what is your name', 'are you a bot', 'who am I talking to', 'what does cso stand for', 'are you human',
    'what are you', 'tell me about yourself', 'who is the chief smile officer',
  ],
  'leave.balance': [
    'how many leave days do I have left', 'what is my leave balance', 'how much annual leave do I have remaining',
    'remaining leave', 'leave balance please', 'how many vacation days are left', 'how many days off do I have left',
    'check my leave balance', 'how many holiday days do I still have', 'how much PTO do I have', 'how many sick days have I used',
    'what is my annual leave entitlement', 'how many leaves do I have', 'do I have enough leave for a week off',
    'how many annual leave days are remaining this year', 'show my leave balance', 'how much leave is left',
    'how many days of annual leave can I still take', 'my remaining vacation', 'how much leave have I used this year',
    'tell me my leave balance', 'leave days left', 'how many days can I take off', 'am I out of annual leave',
  ],
  'requests.status': [
    "what's the status of my request", 'show my requests', 'list my submissions', 'where is my travel request',
    'has my leave been approved', 'is my petty cash approved yet', 'track my request', 'any update on my purchase requisition',
    'what happened to my meeting room booking', 'check the status of my request', 'show my pending requests',
    'which of my requests are still pending', 'did my manager approve my leave', 'show my recent requests',
    'were any of my requests rejected', 'why was my request rejected', 'status of my it ticket', 'is my ticket resolved',
    'what is the progress of my requests', 'list everything I have submitted', 'show me all my forms',
    'how are my requests doing', 'has anyone approved my travel request', 'is my password reset done',
    'what is the status of my leave request', 'any news on my expense claim', 'give me an update on my requests',
    'status of request', 'where is my request at', 'is my booking confirmed',
  ],
  'holiday.info': [
    'when is diwali', 'what holidays are coming up', 'list the public holidays this year', 'when is the next public holiday',
    'is there a holiday next week', 'when is christmas', 'holidays in december', 'is the 26th of january a holiday',
    'which days are holidays in 2027', 'show the holiday calendar', 'upcoming festivals', 'when is independence day',
    'how many public holidays are there this year', 'what date is holi this year', 'is friday a public holiday',
    'when is republic day', 'what is the date of eid', 'list holidays for next year', 'any holidays this month',
    'when is the office closed for holidays', 'what are the bank holidays', 'when does pongal fall',
  ],
  'request.withdraw': [
    'cancel my request', 'withdraw my leave request', 'I want to withdraw my petty cash request', 'please cancel my meeting room booking',
    'retract my travel request', 'take back my purchase requisition', 'I no longer need the room, cancel the booking',
    'delete my request', 'cancel my pending leave', 'withdraw request', 'I changed my mind, cancel my travel request',
    'remove my leave application', 'please withdraw my last request', 'revoke my access request', 'cancel the booking I made',
    'I want to cancel my leave', 'drop my expense claim', 'scrap my request',
  ],
  'approvals.queue': [
    'how many requests are waiting for my approval', 'what is pending for me', 'show my approval queue', 'what needs my approval',
    'anything to approve', 'pending approvals', "what's waiting for me", 'do I have anything to sign off',
    'list the requests awaiting my decision', 'show me the leave requests pending review', 'how many items are in my queue',
    'what do I need to approve today', 'any pending requests from my team', 'show open tickets', "what's on my plate",
    'what needs my attention', 'any approvals pending', 'show me pending items', 'how many forms are pending my review',
    'which requests do I still have to decide', 'show the requests waiting for me', 'list pending leave requests of my team',
    'do I have approvals waiting', 'how many petty cash requests are waiting', 'what is in my inbox',
  ],
  'approvals.details': [
    'show details of the request', 'tell me more about that request', 'what is this request about', 'open the request',
    'view the details of that request', "give me the details of chloe's leave request", 'more info on the first one',
    'who submitted that request', 'details please', 'show me the request', 'what does the request say', 'describe the request',
  ],
  'approvals.approve': [
    'approve the request', 'approve it', "approve chloe's leave", 'please approve the petty cash request from nina',
    'accept the travel request', 'sign off on the purchase requisition', 'I approve this request', 'approve the first one',
    "go ahead and approve maria's travel request", 'okay approve that', 'grant the leave request of alex', 'approve all of them',
    'give it the green light', 'approve that one',
  ],
  'approvals.reject': [
    'reject the request', 'decline the petty cash request', 'deny the travel request from sam', "reject chloe's leave",
    'turn down the purchase requisition', 'reject it because of budget', 'refuse the meeting room booking',
    "say no to maria's petty cash", "don't approve alex's leave", 'reject that one', 'decline it',
  ],
};

/** Phrasings per form type for the 'form.<formType>' intents (requests to submit that form). */
export const FORM_CORPUS: Record<string, readonly string[]> = {
  'leave-request': [
    'I want to apply for leave', 'request time off', 'book annual leave', 'I need a day off tomorrow', 'can I take next friday off',
    "I'd like to take vacation in march", 'apply for sick leave', "I'm sick and can't come in today", 'request casual leave for monday',
    'I need leave for my wedding', 'I want to take a holiday next week', 'I want to go on holiday in april', 'book some PTO',
    "I'm unwell today", 'I need to take leave', 'submit a leave request', 'apply for paternity leave', 'I will be off work on friday',
    "I'd like two days off", 'leave application', 'I need time off for a family event', 'put in for unpaid leave',
    'I want to take annual leave from the 5th to the 9th', 'can I get leave on the 12th', 'off sick today', 'I need a week off',
    'request maternity leave', 'bereavement leave for a funeral', 'take a personal day',
  ],
  'meeting-room': [
    'book a meeting room', 'I need a conference room tomorrow at 3pm', 'reserve the board room', 'can you book a room for 6 people',
    'schedule a meeting room for friday morning', 'I need a room for a team meeting', 'book conference room a',
    'reserve a room from 2pm to 3pm', 'is there a room available for a client meeting', 'meeting room booking',
    'I need a room for an interview', 'get me a meeting space for 10 people', 'book the training room on monday',
    'room reservation for our workshop', 'find me a room for a call at 11', 'I want to book a room',
  ],
  'it-incident': [
    'my laptop is not working', 'the vpn keeps disconnecting', "I can't connect to the wifi", 'outlook keeps crashing',
    'report an it issue', 'my screen is broken', 'the printer is not printing', 'email is down', 'I get an error when I open the erp',
    'the internet is very slow', "my computer won't start", 'raise an it ticket', 'something is wrong with my keyboard',
    'teams is not working', 'I have a technical problem', 'the crm shows an error', 'my mouse stopped working',
    'software keeps freezing', 'report a bug in the system', 'the network is down on our floor', 'my headset has no sound',
    'the projector in the room does not turn on', 'vpn error since this morning', 'I need help with a computer problem',
  ],
  'password-reset': [
    'I forgot my password', 'reset my password', "I'm locked out of my account", 'my email password expired',
    'can you reset my crm password', "I can't log in to the erp", 'password reset please', 'my account is locked',
    'unlock my vpn account', 'I need a new password for email', 'I think my password was compromised', 'forgot my login',
    'my password is not accepted anymore', 'I need my password changed for security reasons', 'locked out of outlook',
  ],
  'petty-cash': [
    'I need petty cash', 'petty cash request for 50 dollars', 'can I get some cash for office supplies', 'request a cash advance of 100 dollars',
    'I need money for a team lunch', 'petty cash for snacks', 'I need 30 dollars for stationery', 'small cash advance please',
    'I need cash for the courier', 'give me petty cash for decorations', 'request cash for the team event',
  ],
  'travel-request': [
    'I need to travel to berlin', 'book a business trip to london', 'travel request to mumbai next week', 'I have to fly to new york for a conference',
    'request travel to the client site', "I'm going to paris for a workshop", 'plan a trip to singapore', 'I need approval for a business trip',
    'submit a travel request', 'I will be travelling to dubai for a partner meeting', 'trip to the head office next month',
    'I need flights and a hotel for a customer visit',
  ],
  'purchase-requisition': [
    'raise a purchase requisition', 'I want to buy 3 monitors', 'purchase 10 chairs at 50 each', 'order new desks for the team',
    'create a purchase request for software licenses', 'we need to buy a projector', 'procurement request for office furniture',
    'requisition for 5 laptops at 900 each', 'I need to purchase a whiteboard', 'buy two printers for the office',
    'purchase order for new headsets', 'please order 20 notebooks',
  ],
  'info-update': [
    'update my address', 'change my phone number', 'I moved house and need to update my details', 'update my bank details',
    'change my emergency contact', 'I got married and need to update my marital status', 'update info', 'update my personal information',
    'my name has changed', 'correct my contact details', 'my new mobile number is', 'change my bank account',
  ],
  'expense-reimbursement': [
    'I want to claim expenses', 'submit an expense reimbursement', 'reimburse my taxi fares', 'I paid for the client dinner and need reimbursement',
    'expense claim for my business trip', 'claim back my hotel costs', 'get reimbursed for meals', 'file my expenses for march',
  ],
  'it-access': [
    'I need access to the crm', 'request access to the erp system', 'give me admin rights on jira', 'I need write access to the shared drive',
    'remove my access to salesforce', 'request system access', 'grant me read access to the reporting database', 'I need permissions for the repository',
  ],
  'employee-onboarding': [
    'onboard a new hire', 'a new employee is joining next month', 'set up onboarding for our new developer', 'new joiner starting on monday',
    'start onboarding for a new team member', 'prepare for a new hire',
  ],
  'exit-clearance': [
    "I'm resigning", 'start my exit clearance', 'my last working day is 30 june', 'I am leaving the company', 'exit clearance form',
    'I handed in my notice', 'clearance for leaving the company',
  ],
  'medical-claim': [
    'claim my medical bills', 'submit a medical claim', 'I went to the doctor and want to claim it back', 'hospital bill reimbursement',
    'claim for my dental treatment', 'reimburse my pharmacy costs',
  ],
  'mileage-claim': [
    'claim mileage for driving to the client', 'I drove 120 km for work', 'mileage claim', 'reimburse my car travel',
    'claim kilometres for a site visit', 'I used my own car for a business trip',
  ],
  'transport-request': [
    'book a cab to the airport', 'I need transport tomorrow morning', 'arrange a taxi for the client visit', 'request a shuttle pickup',
    'I need a car to pick me up from the hotel', 'transport request for the team outing', 'book a taxi for 6am',
  ],
  'facility-access': [
    'I need an access card', 'request building access after hours', "my badge doesn't open the lab", 'temporary access to the server room',
    'extended access hours for the weekend', 'new access card please', 'I lost my access card', 'I need access to the warehouse',
  ],
  'maintenance-request': [
    'the air conditioning is broken in the office', 'there is a leak in the kitchen', 'the light in meeting room 2 is flickering',
    'request maintenance for the broken door', 'fix the chair in my office', 'the toilet is blocked', 'the heating does not work',
    'a window is broken on the third floor',
  ],
  'safety-incident': [
    'report a safety incident', 'someone slipped in the corridor', 'there was an accident in the warehouse', 'report a hazard',
    'a fire extinguisher is missing', 'someone got injured', 'there is a loose handrail on the stairs', 'near miss in the car park',
  ],
  'nda-request': [
    'I need an nda with acme', 'request a non-disclosure agreement', 'confidentiality agreement for a new vendor', 'draft an nda',
    'we need an nda before the meeting with a partner',
  ],
  'contract-approval': [
    'get a contract reviewed', 'submit a contract for approval', 'I need legal sign off on the agreement with globex', 'contract review request',
    'new vendor contract needs approval', 'please review the service agreement',
  ],
  'equipment-request': [
    'I need a new monitor', 'request a headset', 'can I get a second screen', 'I need a new keyboard and mouse', 'order equipment for my desk',
    'I need a new laptop', 'request a docking station', 'my chair is old, I need a new one', 'equipment request',
  ],
  'training-request': [
    'I want to attend a training course', 'request training on aws', 'sign me up for a leadership workshop', "I'd like to take a certification course",
    'training request for python', 'I want to enrol in a course', 'can the company pay for my certification',
  ],
  'event-participation': [
    'I want to attend a conference', 'register me for the tech summit', 'participate in an industry event', 'event participation request',
    'attend a meetup in berlin', 'I would like to speak at a conference', 'can I go to the marketing expo',
  ],
};

/** Words that occur in requests but not in the corpus sentences; they join the spelling vocabulary. */
export const EXTRA_VOCABULARY = `
  annual sick casual unpaid maternity paternity bereavement compensatory vacation holiday holidays leave leaves days day
  week weeks month months year today tomorrow yesterday tonight morning afternoon evening noon midday
  monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
  october november december next last this coming following
  approve approved approval approvals reject rejected rejection decline declined pending waiting queue status request requests
  submit submitted confirm confirmed cancel cancelled withdraw withdrawn balance remaining left many much how what when where
  which who why have has had do does did my your the please room rooms meeting conference board boardroom huddle training
  participants people persons attendees guests password reset forgot forgotten locked account security email vpn crm erp
  laptop computer printer network wifi internet outlook teams error broken working crashing slow petty cash dollars usd amount
  cost costs total each unit quantity purchase requisition travel trip destination flight hotel reason purpose because
  details detail information update address phone number contact bank name expense reimbursement claim receipt
  access card badge building facility maintenance repair safety incident accident nda contract equipment monitor headset
  keyboard mouse docking course certification conference event summit workshop settle settlement ticket tickets
  yes no sure okay ok yeah yep nope cancel stop never mind forget correct right wrong change instead actually
  diwali holi eid christmas republic independence gandhi jayanti pongal onam dussehra navratri ganesh chaturthi
  hour hours minute minutes from until till between starting ending family wedding personal errands appointment doctor flu
`;
